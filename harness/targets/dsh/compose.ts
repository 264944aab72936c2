/**
 * The base composition of the published packages on one root context, as
 * dsh's own loop tests build it: LlmRuntime with a mock adapter on route
 * `mock`, SessionStore, SystemPrompt, ToolRuntime, AgentRegistry and
 * AgentLoop without configured agents; optionally the invariants service and
 * the agent loop's request-reconstruction companion.
 */
import { missingService } from '../boot.ts'
import type { Context } from '@deepseek-ai/cordis'
import type { MountOptions } from '../types.ts'
import { MOCK_PROVIDER, RecordingMockAdapter } from './mock-adapter.ts'
import { dsh, type SystemPromptConfig } from './packages.ts'
import { dshService, isServiceActive } from './services.ts'

/** One mounted composition. */
export interface Composition {
  readonly root: Context
  /** The scripted model; its `requests` are every request dispatched on this root. */
  readonly adapter: RecordingMockAdapter
  /** Services that must be active before turns can run. */
  readonly required: readonly string[]
}

/** The SystemPrompt config: `persona` and `toolOrder` exactly as given, each absent when absent. */
export function systemPromptConfig(config: MountOptions['config']): SystemPromptConfig {
  return {
    ...config.persona !== undefined ? { persona: config.persona } : {},
    ...config.toolOrder !== undefined ? { toolOrder: config.toolOrder } : {},
  }
}

/**
 * Mounts the composition on `root` without awaiting any fiber. A service that
 * fails to construct (a SystemPrompt rejecting its `toolOrder` shape, say) is
 * logged by cordis, and everything injecting it stays pending: see
 * {@link bootProblem}.
 */
export function mountComposition(root: Context, options: Pick<MountOptions, 'config' | 'invariant'>): Composition {
  const adapter = new RecordingMockAdapter()
  root.plugin(dsh.LlmRuntime)
  root.plugin(dsh.SessionStore)
  root.plugin(dsh.SystemPrompt, systemPromptConfig(options.config))
  root.plugin(dsh.ToolRuntime)
  root.plugin(dsh.AgentRegistry)
  root.plugin(dsh.AgentLoop, { agents: [] })
  root.plugin({
    name: 'loadrace-mock-adapter',
    inject: ['llm'],
    apply(ctx: Context) {
      dshService(ctx, 'llm')!.registerAdapter([MOCK_PROVIDER], adapter)
    },
  })
  if (options.invariant) {
    root.plugin(dsh.InvariantRegistry)
    root.plugin(dsh.agentLoopInvariant)
  }
  return { root, adapter, required: options.invariant ? ['agentLoop', 'invariants'] : ['agentLoop'] }
}

/** Why turns cannot run yet (the first required service that is not active, worded as for the reference), or undefined when they can. */
export function bootProblem(composition: Composition): string | undefined {
  const missing = missingService(composition.root)
  if (missing !== undefined) return missing
  const extra = composition.required.find(name => !isServiceActive(composition.root, name))
  return extra === undefined ? undefined : `service "${extra}" is not available after boot`
}
