import type { Context } from '@deepseek-ai/cordis'
import { referenceParts, serviceEntries } from '../../src/composition.ts'
import { MockAdapter } from '../../src/llm/mock-adapter.ts'
import { getVariant } from '../../src/variants/index.ts'
import type { LiveRecord, Mounted, MountOptions, Target, TargetFeatures } from './target.ts'
import { missingService } from './boot.ts'
import { ownSystem } from '../system/system.ts'

/** The scripted model's reply to every request. */
const REPLY = 'ok'

/** The text an agent error contributes: its message (the thrown value verbatim otherwise). */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Why the reference cannot run a scenario with these features (its system, its base config), or undefined. */
function unsupportedBase(features: TargetFeatures): string | undefined {
  const { base, app, system } = features
  if (app === 'entries') return 'app: entries runs the application a cordis.yml mounts, which the reference does not have: run it with --target dsh'
  if (!system.own) {
    return `the reference runs on loadrace's own ${system.packages.cordis.name}; the project at ${system.project} has its own (${system.packages.cordis.version}, ${system.packages.cordis.dir}): sweep it with --target dsh`
  }
  if (base.tools !== undefined) return 'the reference tool registry takes no config (base.tools is for the dsh tool runtime)'
  const forwarded = base.systemPrompt !== undefined || base.agent?.provider !== undefined || base.agent?.model !== undefined
  if (forwarded && (app === 'stdio-agent' || app === 'acp-agent')) {
    return `the RFC-era ${app} forwards persona and toolOrder only (base.systemPrompt and the agent's provider and model need app: none or agent-core)`
  }
  return undefined
}

function mount(root: Context, options: MountOptions): Mounted {
  const { provider, model, cwd } = options.base.agent ?? {}
  const { adapter, controls, services, checks } = referenceParts({
    app: options.app as Exclude<MountOptions['app'], 'entries'>,
    config: { ...options.config as { persona?: string, toolOrder?: string[] }, ...options.base.systemPrompt },
    variant: getVariant(options.variant),
    environment: options.environment,
    adapter: new MockAdapter({ fallback: MockAdapter.textResponse(REPLY), ...provider === undefined ? {} : { provider } }),
    invariant: options.invariant,
    agent: { provider, model },
  })
  const racing = options.services === 'entries'
  // The registry and events services behind cordis's `root.plugin` and `root.on` mixins, read once: every mixin
  // read through a context makes cordis build an Error (with its stack) before it finds the accessor.
  const { registry, events } = root
  for (const part of [...controls, ...racing ? [] : services, ...checks]) registry.plugin(part.plugin, part.config)
  return {
    entries: racing ? serviceEntries(services) : [],
    toolService: 'tools',
    registerTool(ctx, tool, { weight }) {
      ctx.tools.register({ ...tool, execute: () => `${tool.name}: ok` }, weight === undefined ? {} : { weight })
    },
    hasTool: (ctx, name) => ctx.tools.get(name) !== undefined,
    bootProblem: () => missingService(root),
    async runTurns(turns) {
      const live: LiveRecord[] = []
      events.on('agent/status', ({ status }) => { live.push({ event: 'agent/status', status }) })
      events.on('agent/error', ({ turn, step, error }) => { live.push({ event: 'agent/error', turn, step, message: messageOf(error) }) })
      // What `root.agentLoop` answers on the root (whose fiber has no runtime), without the Error of a proxy miss.
      const agentLoop = root.reflect.get('agentLoop', false) as Context['agentLoop']
      const agent = agentLoop.create(cwd === undefined ? {} : { cwd })
      for (let turn = 1; turn <= turns; turn++) {
        agent.followup(`turn ${turn}`)
        await agent.idle()
      }
      return {
        events: agent.session.events as unknown as Record<string, unknown>[],
        requests: adapter.requests,
        header: agent.session.requestHeader(),
        live,
      }
    },
  }
}

/** loadrace's own reference system (`src/`). */
export const referenceTarget: Target = {
  name: 'reference',
  unsupported: unsupportedBase,
  system: () => ownSystem(),
  describe: system => system.describe(),
  mount,
}
