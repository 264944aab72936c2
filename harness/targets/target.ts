import type { Context, Plugin } from '@deepseek-ai/cordis'
import type { System, SystemDescription } from '../system/system.ts'

/**
 * The name of a system under test. loadrace drives the same scenarios through
 * the same scheduled loader against more than one implementation of the RFC,
 * each registered under its name (`registry.ts`).
 */
export type TargetName = string

/** The scripted model in place of an application's live adapter entry: which entry, and the routes and models it serves. */
export interface ScriptedModelSpec {
  /** The label of the loader entry whose module is not imported: the scripted model is its plugin instead. */
  replaces: string
  providers: string[]
  models: string[]
}

/** The folders of one interleaving (see `runtime/workdir.ts`). */
export interface Workdir {
  /** The temporary folder holding the others. */
  readonly root: string
  /** The working directory the system runs in. */
  readonly cwd: string
  /** Its home (`HOME`, `USERPROFILE`). */
  readonly home: string
}

/** What a target adds to an interleaving's isolation: more variables, and files to put in place first. */
export interface IsolationExtras {
  env?: Readonly<Record<string, string>>
  /** Folders whose contents are copied into the working directory before the system starts. */
  seed?: readonly string[]
}

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

/** The part of a `system-prompt/assemble` waterfall's assembly a listener plugin edits, on either target. */
export interface PromptAssemblyTools {
  tools: TargetTool[]
}

/** A live notification, in emission order. */
export type LiveRecord =
  | { event: 'agent/status', status: string }
  | { event: 'agent/error', turn: number, step: number, message: string }
  /** The application answered its client's request with an error (an ACP `session/prompt` whose turn failed): the turn failed, whatever the loop emitted. */
  | { event: 'client/error', method: string, message: string }

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

/**
 * The base composition's own config, as a deployment's cordis.yml sets it for
 * those services (a scenario's `base:`); each part absent when not given.
 */
export interface BaseConfig {
  /** SystemPrompt keys besides persona and toolOrder (those come down the app chain from `config`). */
  systemPrompt?: { includeHarnessIdentity?: boolean, includeRuntimeContext?: boolean }
  /** The tool runtime's plugin config, passed as given (the service validates it). */
  tools?: Record<string, unknown>
  /** The agent the turns run on: its provider route (the scripted model serves it), model, and absolute working directory. */
  agent?: { provider?: string, model?: string, cwd?: string }
}

/** What the base composition needs from the scenario. */
export interface MountOptions {
  /** The system the interleaving runs on (see {@link Target.system}). */
  system: System
  /** The interleaving's own folders (its working directory, home and temporary folder). */
  workdir: Workdir
  /** The dsh snapshot folder the application is judged against, when the scenario names one. */
  snapshot?: string
  /** The live model adapter entry loadrace's scripted model stands in for (`model:`), when the scenario names one. */
  model?: ScriptedModelSpec
  app: 'stdio-agent' | 'acp-agent' | 'agent-core' | 'none' | 'entries'
  config: { persona?: string, toolOrder?: unknown }
  base: BaseConfig
  variant: string
  invariant: boolean
  /** `root`: mount the services directly; `entries`: hand them back as loader entries, so they race too. */
  services: 'root' | 'entries'
  environment: TargetEnvironment
}

/** What a target is asked about before it runs a scenario. */
export interface TargetFeatures {
  /** The system the project under test has. */
  system: System
  app: string
  variant: string
  invariant: boolean
  services: string
  base: BaseConfig
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
  /** The plugin loadrace mounts instead of the module of the entry `label`, when it stands in for one (a scripted model). */
  stands?(label: string): Plugin | undefined
  /** Runs `turns` turns (one followup each, waiting for idle) on one fresh agent. */
  runTurns(turns: number): Promise<Observation>
}

export interface Target {
  readonly name: TargetName
  /** Why this target cannot run a scenario with these features, or undefined. */
  unsupported(features: TargetFeatures): string | undefined
  /** The system it runs on, given the project's: its own, or the project's. */
  system(project: System): Promise<System>
  /** What a report says of the system it ran on: the core packages and the packages of its own it loaded. */
  describe(system: System): SystemDescription
  /** What the interleaving's isolation adds for this scenario (variables, files put in place first). */
  isolation?(scenario: { snapshot?: string }, workdir: Workdir): IsolationExtras
  mount(root: Context, options: MountOptions): Mounted
  /** Node APIs this target supplied to this process because its runtime lacks them (reported beside the Node version). */
  shims?(): readonly string[]
}
