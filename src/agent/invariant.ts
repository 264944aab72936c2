import type { Context } from '@deepseek-ai/cordis'
import type { GenerateOptions } from '../llm/contract.ts'
import { foldRequestHeader } from '../session/header.ts'
import type { SessionStore } from '../session/store.ts'
import { InvariantError } from '../runtime/invariant-error.ts'
import { isAgentLoopRequest } from './request-marker.ts'

export { InvariantError }

/** The package name invariant messages blame. */
export const AGENT_LOOP_PACKAGE = 'agent-loop'

const json = (value: unknown): string | undefined => JSON.stringify(value)

/**
 * The reconstruction check for one dispatched request. Requests without the
 * loop marker are skipped. A marked request must be frozen, belong to a live
 * session whose log has a `step/start` and a defined header fold, carry frozen
 * messages equal (JSON) to `session.deriveMessages()`, and match the folded
 * header on model, system, temperature, maxTokens, stop and tools (absent ≡ []).
 * Provider and reasoning effort are not compared.
 */
export function assertReconstructible(sessions: SessionStore, request: GenerateOptions): void {
  if (!isAgentLoopRequest(request)) return
  const fail = (text: string): never => {
    throw new InvariantError(AGENT_LOOP_PACKAGE, text)
  }
  if (!Object.isFrozen(request)) fail('a loop-built request is not frozen')
  const session = sessions.get(request.sessionId)
  if (session === undefined) return fail(`request names no live session "${request.sessionId}"`)
  if (!Object.isFrozen(request.messages)) fail('request messages are not frozen')
  if (!session.events.some(event => event.type === 'step/start')) fail(`session "${session.id}" has no step/start before dispatch`)
  const header = foldRequestHeader(session.events)
  if (header === undefined) return fail(`session "${session.id}" has no request/header before dispatch`)
  if (json(request.messages) !== json(session.deriveMessages())) fail('request messages differ from the session derivation')
  const compared: [string, unknown, unknown][] = [
    ['model', request.model, header.config.model],
    ['system', request.system, header.system],
    ['temperature', request.temperature, header.config.temperature],
    ['maxTokens', request.maxTokens, header.config.maxTokens],
    ['stop', request.stop, header.config.stop],
    ['tools', request.tools ?? [], header.tools ?? []],
  ]
  for (const [field, actual, folded] of compared) {
    if (json(actual) !== json(folded)) fail(`request field "${field}" differs from the folded request header`)
  }
}

/**
 * The agent loop's reconstruction invariant as a plugin: a global, prepended
 * `llm/stream` listener that runs {@link assertReconstructible} on every
 * dispatch before the rest of the chain.
 */
export const AgentLoopInvariant = {
  name: 'agent-loop-invariant',
  inject: ['sessions'],
  apply(ctx: Context): void {
    ctx.on('llm/stream', (request, next) => {
      assertReconstructible(ctx.sessions, request)
      return next()
    }, { global: true, prepend: true })
  },
}
