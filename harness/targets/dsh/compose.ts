/**
 * The base composition of the published packages on one root context, as
 * dsh's own loop tests build it: LlmRuntime with a mock adapter on the
 * agent's route (`mock` unless the scenario's `base.agent` names one),
 * SessionStore, SystemPrompt, ToolRuntime (with `base.tools` as its config),
 * AgentRegistry and AgentLoop without configured agents; optionally the
 * invariants service and the agent loop's request-reconstruction companion.
 */
import { missingService } from '../boot.ts'
import type { Context } from '@deepseek-ai/cordis'
import type { MountOptions } from '../target.ts'
import { MOCK_MODEL, MOCK_PROVIDER, recordingAdapterClass, type RecordingMockAdapter } from './mock-adapter.ts'
import { packagesOf, type DshPackages, type SystemPromptConfig } from './packages.ts'
import { dshService, isServiceActive } from './services.ts'

/** One mounted composition. */
export interface Composition {
  readonly root: Context
  /** The scripted model; its `requests` are every request dispatched on this root. */
  readonly adapter: RecordingMockAdapter
  /** The dsh packages it is made of. */
  readonly dsh: DshPackages
  /** Services that must be active before turns can run. */
  readonly required: readonly string[]
  /** The agent the turns run on: the route the scripted model serves, and the session's working directory. */
  readonly agent: { provider: string, model: string, cwd?: string }
}

/** The SystemPrompt config: `persona` and `toolOrder` exactly as given, then the base config's own keys, each absent when absent. */
export function systemPromptConfig(config: MountOptions['config'], base: MountOptions['base'] = {}): SystemPromptConfig {
  return {
    ...config.persona !== undefined ? { persona: config.persona } : {},
    ...config.toolOrder !== undefined ? { toolOrder: config.toolOrder } : {},
    ...base.systemPrompt,
  }
}

/**
 * Mounts the composition on `root` without awaiting any fiber. A service that
 * fails to construct (a SystemPrompt rejecting its `toolOrder` shape, say) is
 * logged by cordis, and everything injecting it stays pending: see
 * {@link bootProblem}.
 */
export function mountComposition(root: Context, options: Pick<MountOptions, 'config' | 'invariant' | 'base' | 'system'>): Composition {
  const dsh = packagesOf(options.system)
  const adapter = new (recordingAdapterClass(dsh))()
  const { provider = MOCK_PROVIDER, model = MOCK_MODEL, cwd } = options.base.agent ?? {}
  // The registry behind cordis's `root.plugin` mixin, read once (each mixin read through a context builds an Error).
  const registry = root.registry
  registry.plugin(dsh.LlmRuntime)
  registry.plugin(dsh.SessionStore)
  registry.plugin(dsh.SystemPrompt, systemPromptConfig(options.config, options.base))
  registry.plugin(dsh.ToolRuntime, options.base.tools ?? {})
  registry.plugin(dsh.AgentRegistry)
  registry.plugin(dsh.AgentLoop, { agents: [] })
  registry.plugin({
    name: 'loadrace-mock-adapter',
    inject: ['llm'],
    apply(ctx: Context) {
      dshService(ctx, 'llm')!.registerAdapter([provider], adapter)
    },
  })
  if (options.invariant) {
    registry.plugin(dsh.InvariantRegistry)
    registry.plugin(dsh.agentLoopInvariant)
  }
  return {
    root,
    adapter,
    dsh,
    required: options.invariant ? ['agentLoop', 'invariants'] : ['agentLoop'],
    agent: { provider, model, ...cwd === undefined ? {} : { cwd } },
  }
}

/** Why turns cannot run yet (the first required service that is not active, worded as for the reference), or undefined when they can. */
export function bootProblem(composition: Composition): string | undefined {
  const missing = missingService(composition.root)
  if (missing !== undefined) return missing
  const extra = composition.required.find(name => !isServiceActive(composition.root, name))
  return extra === undefined ? undefined : `service "${extra}" is not available after boot`
}
