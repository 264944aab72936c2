import type { Context, Fiber, Plugin } from '@deepseek-ai/cordis'
import { AgentLoopInvariant } from './agent/invariant.ts'
import { Agent } from './agent/agent.ts'
import { AgentLoop } from './agent/loop.ts'
import { AcpAgent } from './app/acp-agent.ts'
import { AgentCore } from './app/agent-core.ts'
import { definedOnly } from './app/forward.ts'
import { StdioAgent } from './app/stdio-agent.ts'
import { MockAdapter } from './llm/mock-adapter.ts'
import { LlmService } from './llm/service.ts'
import type { Environment } from './runtime/environment.ts'
import { SessionStore } from './session/store.ts'
import { SystemPrompt } from './system-prompt/service.ts'
import { ToolRegistry } from './tools/registry.ts'
import { VariantPlugin } from './variants/plugin.ts'
import type { Variant } from './variants/variant.ts'

/** How the prompt/loop pair is mounted: directly, or through one of the app config chains. */
export type ReferenceApp = 'none' | 'agent-core' | 'stdio-agent' | 'acp-agent'

/** The deployment keys the composition forwards to SystemPrompt (directly or through the app chain). */
export interface ReferenceConfig {
  persona?: string
  /** Explicit tool order; omitted means lexicographic. `null` mimics a YAML key without a value. */
  toolOrder?: readonly string[] | null
  /** SystemPrompt's fixed identity section (default true). */
  includeHarnessIdentity?: boolean
  /** Whether runtime-context entries reach the assembly (default true). */
  includeRuntimeContext?: boolean
}

/** The default route of the agents the loop creates. */
export interface ReferenceAgentDefaults {
  provider?: string
  model?: string
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
  /** The agent loop's default provider and model (the loop's own defaults when omitted). */
  agent?: ReferenceAgentDefaults
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
    /** The agent prompt variables ({{provider}}, {{model}}, {{cwd}}). */
    variables?: MountedFiber
  }
}

const EnvironmentPlugin = {
  name: 'environment',
  apply(ctx: Context, environment: Environment): void {
    ctx.provide('environment', environment)
  },
}

/**
 * The assembling agent's route and working directory as the prompt variables
 * `{{provider}}`, `{{model}}` and `{{cwd}}`, as dsh's agent loop registers
 * them (a persona may name them). Registered once per composition, beside
 * the loop, so a second loop on the same prompt does not register them twice.
 */
const AgentVariablesPlugin = {
  name: 'agent-variables',
  inject: ['systemPrompt'],
  apply(ctx: Context): void {
    const agentOf = (agent: unknown) => agent instanceof Agent ? agent : undefined
    ctx.systemPrompt.variable('provider', context => agentOf(context.agent)?.options.provider)
    ctx.systemPrompt.variable('model', context => agentOf(context.agent)?.options.model)
    ctx.systemPrompt.variable('cwd', context => agentOf(context.agent)?.options.cwd)
  },
}

const MockAdapterPlugin = {
  name: 'mock-adapter',
  inject: ['llm'],
  apply(ctx: Context, adapter: MockAdapter): void {
    ctx.llm.register(adapter)
  },
}

/** One plugin of the composition, as `ctx.plugin(plugin, config)` takes it. */
export interface ReferencePart {
  /** The `ReferenceHandles.fibers` key it is mounted under. */
  key: keyof ReferenceHandles['fibers']
  plugin: Plugin
  config?: unknown
}

/**
 * The app part: SystemPrompt and AgentLoop directly, or one app plugin that
 * mounts its chain. The RFC-era stdio-agent and acp-agent forward persona and
 * toolOrder only; agent-core takes SystemPrompt's and the loop's keys.
 */
function appParts(app: ReferenceApp, config: ReferenceConfig, agent: ReferenceAgentDefaults): ReferencePart[] {
  const forwarded = definedOnly(config)
  const route = definedOnly(agent)
  switch (app) {
    case 'none': return [
      { key: 'systemPrompt', plugin: SystemPrompt, config: forwarded },
      { key: 'agentLoop', plugin: AgentLoop, config: { agents: [], ...route } },
    ]
    case 'agent-core': return [{ key: 'app', plugin: AgentCore, config: { ...forwarded, ...route, agents: [] } }]
    case 'stdio-agent': return [{ key: 'app', plugin: StdioAgent, config: forwarded }]
    case 'acp-agent': return [{ key: 'app', plugin: AcpAgent, config: forwarded }]
  }
}

/**
 * The composition as an ordered list of plugins: the harness's controls
 * (environment, variant), the services under test, and the invariant.
 */
export function referenceParts(options: ReferenceOptions = {}): { adapter: MockAdapter, controls: ReferencePart[], services: ReferencePart[], checks: ReferencePart[] } {
  const adapter = options.adapter ?? new MockAdapter()
  const controls: ReferencePart[] = [
    ...options.environment ? [{ key: 'environment' as const, plugin: EnvironmentPlugin, config: options.environment }] : [],
    ...options.variant ? [{ key: 'variant' as const, plugin: VariantPlugin, config: options.variant }] : [],
    { key: 'variables', plugin: AgentVariablesPlugin },
  ]
  const services: ReferencePart[] = [
    { key: 'llm', plugin: LlmService },
    { key: 'adapter', plugin: MockAdapterPlugin, config: adapter },
    { key: 'sessions', plugin: SessionStore },
    { key: 'tools', plugin: ToolRegistry },
    ...appParts(options.app ?? 'none', options.config ?? {}, options.agent ?? {}),
  ]
  const checks: ReferencePart[] = options.invariant ? [{ key: 'invariant', plugin: AgentLoopInvariant }] : []
  return { adapter, controls, services, checks }
}

/**
 * The services as loader entries (ids as in `SERVICE_ENTRY_IDS`): each
 * entry is one plugin; the LLM entry carries the scripted adapter with it.
 */
export function serviceEntries(services: readonly ReferencePart[]): { id: string, plugin: Plugin, config?: unknown }[] {
  const part = (key: ReferencePart['key']) => services.find(candidate => candidate.key === key)!
  const llm = part('llm')
  const adapter = part('adapter')
  const bundle = {
    name: 'llm',
    apply(ctx: Context) {
      ctx.plugin(llm.plugin)
      ctx.plugin(adapter.plugin, adapter.config)
    },
  }
  const ids: Partial<Record<ReferencePart['key'], string>> = { sessions: 'sessions', tools: 'tools', systemPrompt: 'system-prompt', agentLoop: 'agent-loop', app: 'app' }
  return [
    { id: 'llm', plugin: bundle },
    ...services.flatMap(item => (ids[item.key] ? [{ id: ids[item.key]!, plugin: item.plugin, config: item.config }] : [])),
  ]
}

/**
 * Mounts the reference system (REFERENCE-SPEC §11) on `ctx`: the optional
 * `environment` and `variant` services (the variant's assemble listener
 * included), the agent prompt variables, LlmService with a MockAdapter on its route, SessionStore,
 * ToolRegistry, then SystemPrompt + AgentLoop directly or through the app
 * chain, and the reconstruction invariant when asked. Synchronous: await the
 * returned fibers to observe activation (or failure).
 */
export function mountReference(ctx: Context, options: ReferenceOptions = {}): ReferenceHandles {
  const { adapter, controls, services, checks } = referenceParts(options)
  const fibers: Partial<ReferenceHandles['fibers']> = {}
  for (const part of [...controls, ...services, ...checks]) fibers[part.key] = ctx.plugin(part.plugin, part.config)
  return { adapter, fibers: fibers as ReferenceHandles['fibers'] }
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
