import type { Context, Fiber } from '@deepseek-ai/cordis'
import { AgentLoopInvariant } from './agent/invariant.ts'
import { AgentLoop } from './agent/loop.ts'
import { AcpAgent } from './app/acp-agent.ts'
import { AgentCore } from './app/agent-core.ts'
import { StdioAgent } from './app/stdio-agent.ts'
import { MockAdapter } from './llm/mock-adapter.ts'
import { LlmService } from './llm/service.ts'
import type { Environment } from './runtime/environment.ts'
import { SessionStore } from './session/store.ts'
import { SystemPrompt } from './system-prompt/service.ts'
import { ToolRegistry } from './tools/registry.ts'
import { VariantPlugin } from './variants/plugin.ts'
import type { Variant } from './variants/types.ts'

/** How the prompt/loop pair is mounted: directly, or through one of the app config chains. */
export type ReferenceApp = 'none' | 'agent-core' | 'stdio-agent' | 'acp-agent'

/** The deployment keys the composition forwards to SystemPrompt (directly or through the app chain). */
export interface ReferenceConfig {
  persona?: string
  /** Explicit tool order; omitted means lexicographic. `null` mimics a YAML key without a value. */
  toolOrder?: readonly string[] | null
}

/** Options of {@link mountReference}. */
export interface ReferenceOptions {
  /** Default `'none'`: SystemPrompt and AgentLoop are mounted directly. */
  app?: ReferenceApp
  config?: ReferenceConfig
  /** Ordering policy under test; omitted means canonical (no `variant` service). */
  variant?: Variant
  /** Clock/id source; omitted means the real one (no `environment` service). */
  environment?: Environment
  /** The scripted model; a fresh `MockAdapter` (route `mock`) when omitted. */
  adapter?: MockAdapter
  /** Mount the agent loop's reconstruction invariant. */
  invariant?: boolean
}

/** A mounted plugin: its fiber, awaitable until it settles (rejecting when it failed). */
export type MountedFiber = Fiber & PromiseLike<Fiber>

/** What {@link mountReference} mounted. */
export interface ReferenceHandles {
  adapter: MockAdapter
  fibers: {
    environment?: MountedFiber
    variant?: MountedFiber
    llm: MountedFiber
    adapter: MountedFiber
    sessions: MountedFiber
    tools: MountedFiber
    /** The app chain's root fiber (`app` other than `'none'`). */
    app?: MountedFiber
    /** SystemPrompt and AgentLoop (`app: 'none'` only; an app chain mounts its own). */
    systemPrompt?: MountedFiber
    agentLoop?: MountedFiber
    invariant?: MountedFiber
  }
}

const EnvironmentPlugin = {
  name: 'environment',
  apply(ctx: Context, environment: Environment): void {
    ctx.provide('environment', environment)
  },
}

const MockAdapterPlugin = {
  name: 'mock-adapter',
  inject: ['llm'],
  apply(ctx: Context, adapter: MockAdapter): void {
    ctx.llm.register(adapter)
  },
}

/** The forwarded keys, each present only when it was given (an omitted `toolOrder` must stay absent). */
function forwardedConfig(config: ReferenceConfig): ReferenceConfig {
  return {
    ...config.persona === undefined ? {} : { persona: config.persona },
    ...config.toolOrder === undefined ? {} : { toolOrder: config.toolOrder },
  }
}

/**
 * Mounts the reference system (REFERENCE-SPEC §11) on `ctx`: the optional
 * `environment` and `variant` services (the variant's assemble listener
 * included), LlmService with a MockAdapter on its route, SessionStore,
 * ToolRegistry, then SystemPrompt + AgentLoop directly or through the app
 * chain, and the reconstruction invariant when asked. Synchronous: await the
 * returned fibers to observe activation (or failure).
 */
export function mountReference(ctx: Context, options: ReferenceOptions = {}): ReferenceHandles {
  const adapter = options.adapter ?? new MockAdapter()
  const app = options.app ?? 'none'
  const config = options.config ?? {}
  const fibers: ReferenceHandles['fibers'] = {
    ...options.environment ? { environment: ctx.plugin(EnvironmentPlugin, options.environment) } : {},
    ...options.variant ? { variant: ctx.plugin(VariantPlugin, options.variant) } : {},
    llm: ctx.plugin(LlmService),
    adapter: ctx.plugin(MockAdapterPlugin, adapter),
    sessions: ctx.plugin(SessionStore),
    tools: ctx.plugin(ToolRegistry),
  }
  const forwarded = forwardedConfig(config)
  switch (app) {
    case 'none':
      fibers.systemPrompt = ctx.plugin(SystemPrompt, forwarded)
      fibers.agentLoop = ctx.plugin(AgentLoop, { agents: [] })
      break
    case 'agent-core':
      fibers.app = ctx.plugin(AgentCore, { ...forwarded, agents: [] })
      break
    case 'stdio-agent':
      fibers.app = ctx.plugin(StdioAgent, forwarded)
      break
    case 'acp-agent':
      fibers.app = ctx.plugin(AcpAgent, forwarded)
      break
  }
  if (options.invariant) fibers.invariant = ctx.plugin(AgentLoopInvariant)
  return { adapter, fibers }
}

/**
 * Resolves once the service `name` is active for `ctx` (immediately when it
 * already is). Never settles when the service never appears — for example an
 * app chain whose SystemPrompt failed on a malformed `toolOrder` (§6.4).
 */
export function whenActive(ctx: Context, name: string): Promise<void> {
  return new Promise<void>(resolve => {
    const probe = ctx.inject([name], () => {
      resolve()
      queueMicrotask(() => void probe.dispose())
    })
  })
}
