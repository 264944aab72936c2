import type { Message, UserMessage } from '../llm/contract.ts'
import type { Session } from '../session/session.ts'

/** The `source.plugin` of runtime-context snapshot messages. */
export const RUNTIME_CONTEXT_SOURCE = 'system-prompt'

/** The snapshot text sent when runtime context disappears after having been shown. */
export const CLEARED_RUNTIME_CONTEXT = 'Runtime context: none. Earlier runtime-context snapshots are void.'

function isSnapshot(message: Message): boolean {
  return message.role === 'user' && message.source.kind === 'plugin' && message.source.plugin === RUNTIME_CONTEXT_SOURCE
}

function textOf(message: Message): string | undefined {
  const [block] = message.content
  return message.content.length === 1 && block?.type === 'text' ? block.text : undefined
}

/**
 * Decides when a runtime-context snapshot (a `user/message` from the prompt
 * plugin) is owed: only when the rendered contexts differ from the last
 * snapshot the session retains. A composition without contexts never owes one.
 */
export class RuntimeContextProjection {
  /** Text of the last snapshot in the log; `undefined` when there never was one. */
  private retained: string | undefined

  constructor(session: Session) {
    for (let index = session.events.length - 1; index >= 0; index--) {
      const event = session.events[index]!
      if (event.type === 'user/message' && isSnapshot(event.data)) {
        this.retained = textOf(event.data) ?? ''
        break
      }
    }
  }

  /** The snapshot owed for these rendered context texts, built with `id`, or `undefined`. */
  owed(texts: readonly string[], newId: () => string): UserMessage | undefined {
    const current = texts.join('\n\n')
    if (current === '' && this.retained === undefined) return undefined
    const text = current === '' ? CLEARED_RUNTIME_CONTEXT : current
    if (text === this.retained) return undefined
    return {
      content: [{ type: 'text', text }],
      source: { kind: 'plugin', plugin: RUNTIME_CONTEXT_SOURCE },
      role: 'user',
      id: newId(),
    }
  }

  /** Records that `message` entered the log (a snapshot becomes the retained one). */
  observe(message: Message): void {
    if (isSnapshot(message)) this.retained = textOf(message) ?? ''
  }
}
