import type { Context, Plugin } from '@deepseek-ai/cordis'

/**
 * A system under test. loadrace drives the same scenarios through the same
 * scheduled loader against more than one implementation of the RFC: its own
 * reference (`src/`) and the published dsh packages.
 */
export const TARGET_NAMES = ['reference', 'dsh'] as const
export type TargetName = typeof TARGET_NAMES[number]

/** The target a scenario runs against unless it says otherwise. */
export const DEFAULT_TARGET: TargetName = 'reference'

/** Deterministic time and ids for one interleaving. */
export interface TargetEnvironment {
  now(): number
  newId(): string
}

/** A tool as a synthetic plugin registers it. */
export interface TargetTool {
  name: string
  description: string
  parameters: Record<string, unknown>
}

/** A live notification, in emission order. */
export type LiveRecord =
  | { event: 'agent/status', status: string }
  | { event: 'agent/error', turn: number, step: number, message: string }

/** What one interleaving observed of the system, before projection. */
export interface Observation {
  /** The agent's session log in order, each event as stored (`time` included; the projection drops it). */
  events: readonly Record<string, unknown>[]
  /** Every request object the scripted adapter received, in order (by reference). */
  requests: readonly object[]
  /** The request-header fold of the session log after the last turn (undefined when no header was logged). */
  header: unknown
  live: readonly LiveRecord[]
}

/** What the base composition needs from the scenario. */
export interface MountOptions {
  app: 'stdio-agent' | 'acp-agent' | 'agent-core' | 'none'
  config: { persona?: string, toolOrder?: unknown }
  variant: string
  invariant: boolean
  /** `root`: mount the services directly; `entries`: hand them back as loader entries, so they race too. */
  services: 'root' | 'entries'
  environment: TargetEnvironment
}

/** A plugin the base composition contributes as a loader entry (`services: entries`). */
export interface ServiceEntry {
  id: string
  plugin: Plugin
  config?: unknown
}

/** The base composition mounted on one fresh root context. */
export interface Mounted {
  /** The base composition's loader entries (empty unless mounted with `services: entries`). */
  readonly entries: readonly ServiceEntry[]
  /** The service a tool plugin injects to register tools. */
  readonly toolService: string
  /** Registers one tool from a plugin's own context (disposed with that plugin). */
  registerTool(ctx: Context, tool: TargetTool, options: { weight?: number }): void
  /** Whether a tool of this name is registered right now. */
  hasTool(ctx: Context, name: string): boolean
  /** After boot: why the agent loop cannot serve turns, or undefined when it can. */
  bootProblem(): string | undefined
  /** Runs `turns` turns (one followup each, waiting for idle) on one fresh agent. */
  runTurns(turns: number): Promise<Observation>
}

export interface Target {
  readonly name: TargetName
  /** Why this target cannot run a scenario with these features, or undefined. */
  unsupported(features: { app: string, variant: string, invariant: boolean, services: string }): string | undefined
  mount(root: Context, options: MountOptions): Mounted
}
