/**
 * Driving turns on one fresh dsh agent and collecting what they showed.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { LiveRecord, Observation, TargetEnvironment } from '../target.ts'
import type { Composition } from './compose.ts'
import { Determinizer } from './determinism.ts'
import { dshService, listen } from './services.ts'

function field(payload: unknown, key: string): unknown {
  return typeof payload === 'object' && payload !== null ? Reflect.get(payload, key) : undefined
}

function agentIdOf(payload: unknown): unknown {
  return field(field(payload, 'agent'), 'id')
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Records the agent's `agent/status` transitions and `agent/error` reports
 * (payloads of other agents ignored) and lets a caller wait for the next
 * `idle`. Listeners sit on the root, so they see every agent's notifications.
 */
class LiveLog {
  readonly records: LiveRecord[] = []
  private idleWaiters: (() => void)[] = []
  private readonly disposers: (() => boolean)[]

  constructor(root: Context, private readonly agentId: string) {
    this.disposers = [
      listen(root, 'agent/status', payload => this.onStatus(payload)),
      listen(root, 'agent/error', payload => this.onError(payload)),
    ]
  }

  /** Resolves at the next `agent/status idle` of the agent. */
  nextIdle(): Promise<void> {
    return new Promise(resolve => this.idleWaiters.push(resolve))
  }

  dispose(): void {
    for (const dispose of this.disposers) dispose()
  }

  private onStatus(payload: unknown): void {
    if (agentIdOf(payload) !== this.agentId) return
    const status = String(field(payload, 'status'))
    this.records.push({ event: 'agent/status', status })
    if (status !== 'idle') return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  private onError(payload: unknown): void {
    if (agentIdOf(payload) !== this.agentId) return
    this.records.push({
      event: 'agent/error',
      turn: Number(field(payload, 'turn')),
      step: Number(field(payload, 'step')),
      message: messageOf(field(payload, 'error')),
    })
  }
}

/** The user message of turn `turn`, in the key order dsh's own constructor produces. */
function turnMessage(composition: Composition, turn: number, id: string): object {
  return composition.dsh.freezeMessage({ content: [{ type: 'text', text: `turn ${turn}` }], source: { kind: 'user' }, role: 'user', id })
}

/**
 * Creates one agent (session id from the environment), sends `turn 1` …
 * `turn N` as follow-ups one at a time, waiting for `agent/status idle` after
 * each, then disposes the agent and returns the normalised observation.
 */
export async function runTurns(composition: Composition, environment: TargetEnvironment, turns: number): Promise<Observation> {
  const agents = dshService(composition.root, 'agents')
  if (!agents) throw new Error('service "agents" is not available')
  const determinizer = new Determinizer(environment)
  const firstRequest = composition.adapter.requests.length
  const sessionId = environment.newId()
  const live = new LiveLog(composition.root, sessionId)
  try {
    const { provider, model, cwd } = composition.agent
    const handle = await agents.create({ sessionId, agentOptions: { provider, model }, ...cwd === undefined ? {} : { meta: { cwd } } })
    const { session } = handle.agent
    const events: Record<string, unknown>[] = []
    let observation: Observation
    try {
      for (let turn = 1; turn <= turns; turn++) {
        const message = turnMessage(composition, turn, environment.newId())
        const idle = live.nextIdle()
        handle.agent.followup(message)
        await idle
        // Normalised turn by turn, so ids are allocated in the order a generator inside the system would have.
        events.push(...session.events.slice(events.length).map(event => determinizer.event(event)))
      }
      observation = {
        events,
        requests: composition.adapter.requests.slice(firstRequest).map(request => determinizer.value(request)),
        header: determinizer.value(composition.dsh.foldRequestHeader(session.events)),
        live: live.records.map(record => determinizer.value(record)),
      }
    } finally {
      await handle.dispose()
    }
    return observation
  } finally {
    live.dispose()
  }
}
