import type { LlmFailure } from './contract.ts'

/** An error that carries serialisable {@link LlmFailure} facts; `code` routes it (for example `NO_ADAPTER`). */
export class LlmError extends Error {
  override readonly name = 'LlmError'
  readonly code: string
  readonly failure: LlmFailure

  constructor(message: string, code: string, facts: Omit<LlmFailure, 'message' | 'code'> = {}) {
    super(message)
    this.code = code
    const defined = Object.entries(facts).filter(([, value]) => value !== undefined)
    this.failure = Object.freeze({ message, code, ...Object.fromEntries(defined) })
  }
}

/**
 * The text of a thrown value and everything behind it: the message (the error's
 * name when empty), AggregateError members in brackets joined by `; `, then each
 * `cause` appended as `: cause`. Non-errors render their own `message` string,
 * else `String(value)`.
 */
export function errorChainText(value: unknown): string {
  const active = new Set<unknown>()
  const render = (current: unknown): string => {
    if (active.has(current)) return '<circular>'
    active.add(current)
    try {
      if (!(current instanceof Error)) {
        if (typeof current === 'object' && current !== null) {
          const message: unknown = (current as { message?: unknown }).message
          if (typeof message === 'string') return message
        }
        return String(current)
      }
      let text = current.message === '' ? current.name : current.message
      if (current instanceof AggregateError && current.errors.length > 0) {
        text += ` [${current.errors.map(render).join('; ')}]`
      }
      if (current.cause !== undefined && current.cause !== null) text += `: ${render(current.cause)}`
      return text
    } finally {
      active.delete(current)
    }
  }
  return render(value)
}

/** §5's failure facts for any thrown value: an {@link LlmError} keeps its own; anything else becomes `{ message: chain text, code: 'UNKNOWN' }`. */
export function failureOf(error: unknown): LlmFailure {
  if (error instanceof LlmError) return error.failure
  return { message: errorChainText(error), code: 'UNKNOWN' }
}
