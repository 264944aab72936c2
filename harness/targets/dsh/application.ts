/**
 * The whole application as the system under test (`app: entries`): an
 * unmodified dsh configuration — a cordis.yml with its app entry
 * (`@deepseek-ai/dsh-acp-demo` mounts the agent spine and the ACP bridge), or
 * a `*.cordis.snapshot.yml` that includes one — mounted with nothing of
 * loadrace's own beside it. loadrace takes the spine's services from the
 * booted system, hands the ACP bridge its own transport instead of the
 * process's stdio, records every request the loop dispatches, and drives the
 * turn as dsh's snapshot harness does: the snapshot's ACP steps (else
 * `initialize`, `session/new` and one prompt per turn). The model is whatever
 * the configuration mounts that serves offline (`dsh-llm-replay`, fed from the
 * snapshot), or loadrace's scripted model in place of the live adapter entry
 * the scenario names (`model:`): loadrace never reaches a network.
 */
import { realpathSync } from 'node:fs'
import type { Context, Fiber } from '@deepseek-ai/cordis'
import type { LiveRecord, Mounted, MountOptions, Observation, TargetEnvironment } from '../target.ts'
import { AcpClient, acpTransport, driveSteps } from './acp-client.ts'
import { Determinizer } from './determinism.ts'
import { standInModelPlugin } from './mock-adapter.ts'
import { packagesOf } from './packages.ts'
import { readSnapshot, type AcpStep, type PermissionAnswer } from './snapshot.ts'
import { hasTool, registerTool, TOOL_SERVICE } from './tools.ts'
import { listen } from './services.ts'

/** The services of the agent spine a booted application must provide, in the order they depend on each other. */
export const SPINE_SERVICES = ['llm', 'sessions', 'systemPrompt', 'tools', 'agents', 'agentLoop'] as const

/** The `name` of the ACP bridge's plugin module (`@deepseek-ai/dsh-acp`), whose config takes the transport. */
const ACP_PLUGIN = 'acp'

/** The ids standing in for those the application mints: UUID-shaped, so dsh's own normalisation (UUID → `{{sessionId}}`) applies to them. */
function uuidShaped(environment: TargetEnvironment): TargetEnvironment {
  let serial = 0
  return { now: () => environment.now(), newId: () => `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}` }
}

/** The steps of one run: the snapshot's, or `initialize`, `session/new` and one prompt per turn. */
function stepsOf(snapshot: string | undefined, turns: number): { steps: AcpStep[], answers: PermissionAnswer[] } {
  if (snapshot !== undefined) {
    const read = readSnapshot(snapshot)
    return { steps: read.steps, answers: read.permissionAnswers }
  }
  const prompts = Array.from({ length: turns }, (_, turn): AcpStep => ({ op: 'prompt', text: `turn ${turn + 1}` }))
  return { steps: [{ op: 'initialize' }, { op: 'newSession' }, ...prompts], answers: [] }
}

function spellingsOf(path: string): string[] {
  try {
    return [...new Set([path, realpathSync(path), realpathSync.native(path)])]
  } catch {
    return [path]
  }
}

type Listener = (this: Fiber, ...args: unknown[]) => unknown
type UntypedOn = (this: Context, name: string, listener: Listener, options?: object) => () => boolean

function on(ctx: Context, name: string, listener: Listener, options?: object): () => boolean {
  // The events service's own `on` (what the `ctx.on` mixin calls), without the Error cordis builds for a mixin read.
  const events = ctx.events
  return (events.on as unknown as UntypedOn).call(events as unknown as Context, name, listener, options)
}

/** Mounts nothing of loadrace's own on `root`: only what lets loadrace drive and observe the application the entries mount. */
export function mountApplication(root: Context, options: MountOptions): Mounted {
  const transport = acpTransport()
  const requests: object[] = []
  let bridged = false
  // The bridge takes a runtime-only `stream` from its config; every other fiber's config passes through untouched.
  on(root, 'internal/config', function (this: Fiber, ...args: unknown[]) {
    const next = args[1] as () => unknown
    const config = next()
    if (this?.runtime?.name !== ACP_PLUGIN || typeof config !== 'object' || config === null) return config
    bridged = true
    return { ...config as object, stream: transport.agent }
  }, { global: true })
  // Outermost on the stream waterfall: sees every request exactly as the loop dispatched it.
  on(root, 'llm/stream', (...args: unknown[]) => {
    requests.push(args[0] as object)
    return (args[1] as () => unknown)()
  }, { global: true, prepend: true })

  const { workdir } = options
  const determinizer = () => new Determinizer(uuidShaped(options.environment), [
    ...spellingsOf(workdir.cwd).map(path => [path, '{{cwd}}'] as const),
    ...spellingsOf(workdir.root).map(path => [path, '{{workdir}}'] as const),
  ])

  return {
    entries: [],
    toolService: TOOL_SERVICE,
    registerTool: (ctx, tool) => registerTool(ctx, tool),
    hasTool: (ctx, name) => hasTool(ctx, name),
    stands(label) {
      if (options.model === undefined || label !== options.model.replaces) return undefined
      return standInModelPlugin(packagesOf(options.system), options.model) as never
    },
    bootProblem() {
      const reflect = root.reflect
      const missing = SPINE_SERVICES.find(name => reflect.get(name) === undefined)
      if (missing !== undefined) return `service "${missing}" is not available after boot: the application mounts no agent spine providing it`
      if (!bridged) return 'the application mounts no ACP bridge (@deepseek-ai/dsh-acp) for loadrace to drive its turn through'
      return undefined
    },
    async runTurns(turns): Promise<Observation> {
      const dsh = packagesOf(options.system)
      const { steps, answers } = stepsOf(options.snapshot, turns)
      const client = new AcpClient(transport, answers)
      const sessions = root.reflect.get('sessions') as { get(id: string): { events: readonly Record<string, unknown>[] } | undefined }
      // Live notifications of every agent, in order; those of the session the client creates are kept.
      const heard: { agent: string, record: LiveRecord }[] = []
      const agentOf = (payload: unknown) => String((payload as { agent?: { id?: unknown } }).agent?.id)
      const disposers = [
        listen(root, 'agent/status', payload => heard.push({ agent: agentOf(payload), record: { event: 'agent/status', status: String((payload as { status?: unknown }).status) } })),
        listen(root, 'agent/error', (payload) => {
          const { turn, step, error } = payload as { turn?: unknown, step?: unknown, error?: unknown }
          heard.push({ agent: agentOf(payload), record: { event: 'agent/error', turn: Number(turn), step: Number(step), message: error instanceof Error ? error.message : String(error) } })
        }),
      ]
      try {
        const { sessionId, failures } = await driveSteps(client, steps, workdir.cwd)
        const events = sessionId === undefined ? [] : sessions.get(sessionId)?.events ?? []
        const rewrite = determinizer()
        return {
          events: events.map(event => rewrite.event(event)),
          requests: requests.map(request => rewrite.value(request)),
          header: rewrite.value(dsh.foldRequestHeader(events)),
          live: [
            ...heard.filter(item => item.agent === sessionId).map(item => item.record),
            ...failures.map((failure): LiveRecord => ({ event: 'client/error', ...failure })),
          ].map(record => rewrite.value(record)),
        }
      } finally {
        for (const dispose of disposers) dispose()
        await client.close()
      }
    },
  }
}
