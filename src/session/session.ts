import type { Message } from '../llm/contract.ts'
import { realEnvironment, type Environment } from '../runtime/environment.ts'
import { deepFreeze, losslessSnapshot, LosslessSnapshotError } from '../runtime/freeze.ts'
import { assertSupportedHeaderRecord, foldRequestHeader, type EpochHeader } from './header.ts'
import {
  SURFACE_EVENT_TYPES, type SessionEvent, type SessionEventDataMap, type SessionEventType,
} from './events.ts'

/** Options of one append. */
export interface AppendOptions {
  /** Surface types only: seqs of earlier events this event was derived from. */
  sourceEventSeqs?: readonly number[]
}

/** How a session is wired into its host. */
export interface SessionHooks {
  /** Clock source, read per append; default {@link realEnvironment}. */
  environment?: () => Environment
  /** Publishes each accepted event; an append made while this runs throws. */
  publish?: (session: Session, event: SessionEvent) => void
}

/** The model message an event contributes to the derived history, if any. */
function derivedMessage(event: SessionEvent): Message | undefined {
  switch (event.type) {
    case 'user/message': return event.data
    case 'assistant/message': return event.data.message.content.length > 0 ? event.data.message : undefined
    case 'tool/result': return event.data.message
    default: return undefined
  }
}

/**
 * An event-sourced session: an append-only, deep-frozen log. Every request of
 * the agent loop is derived from it (`deriveMessages()` + `requestHeader()`).
 */
export class Session {
  private readonly log: SessionEvent[] = []
  private publishing: SessionEvent | undefined
  private headerFold: EpochHeader | undefined
  private headerFoldSeq = 0
  private readonly derived: Message[] = []
  private derivedSeq = 0

  constructor(readonly id: string, private readonly hooks: SessionHooks = {}) {}

  /** The log, in seq order. Read-only: events are frozen and only `append` extends it. */
  get events(): readonly SessionEvent[] {
    return this.log
  }

  /**
   * Appends one event synchronously and returns it: the data is stored as a
   * deep-frozen lossless-JSON snapshot, `seq` is the log length, surface types
   * get `surfaceOp: 'append'`. Throws on non-lossless data, on the legacy
   * header vocabulary, on provenance options for non-surface types, and when
   * called while an earlier event is being published.
   */
  append<K extends SessionEventType>(type: K, data: SessionEventDataMap[K], options: AppendOptions = {}): SessionEvent<K> {
    const seq = this.log.length
    const where = `session "${this.id}" event ${seq} (${type})`
    if (this.publishing) {
      throw new Error(`${where}: reentrant append while event ${this.publishing.seq} (${this.publishing.type}) is being published`)
    }
    assertSupportedHeaderRecord(type, data, where)
    const surface = SURFACE_EVENT_TYPES.has(type)
    const sources = options.sourceEventSeqs
    if (sources !== undefined) {
      if (!surface) throw new Error(`${where}: only message-producing events may cite sourceEventSeqs`)
      for (const source of sources) {
        if (!Number.isSafeInteger(source) || source < 0 || source >= seq) {
          throw new Error(`${where}: sourceEventSeqs must cite earlier events, got ${String(source)}`)
        }
      }
    }
    let snapshot: SessionEventDataMap[K]
    try {
      snapshot = losslessSnapshot(data)
    } catch (error) {
      if (error instanceof LosslessSnapshotError) throw new Error(`${where} rejected: ${error.message.replace(' at $', ' at data')}`, { cause: error })
      throw error
    }
    const event = deepFreeze({
      type,
      seq,
      time: (this.hooks.environment?.() ?? realEnvironment).now(),
      data: snapshot,
      ...surface ? { surfaceOp: 'append' as const } : {},
      ...sources === undefined ? {} : { sourceEventSeqs: [...sources] },
    }) as SessionEvent<K>
    const logged = event as SessionEvent
    this.log.push(logged)
    this.publishing = logged
    try {
      this.hooks.publish?.(this, logged)
    } finally {
      this.publishing = undefined
    }
    return event
  }

  /** The header in force after the last `request/header` snapshot (deep-frozen), or `undefined`. Maintained incrementally. */
  requestHeader(): EpochHeader | undefined {
    if (this.headerFoldSeq < this.log.length) {
      this.headerFold = deepFreeze(foldRequestHeader(this.log.slice(this.headerFoldSeq), this.headerFold))
      this.headerFoldSeq = this.log.length
    }
    return this.headerFold
  }

  /**
   * The model history: `user/message` data, non-empty `assistant/message`
   * messages and `tool/result` messages, in log order. A fresh array of the
   * shared frozen messages on every call.
   */
  deriveMessages(): Message[] {
    for (const event of this.log.slice(this.derivedSeq)) {
      const message = derivedMessage(event)
      if (message) this.derived.push(message)
    }
    this.derivedSeq = this.log.length
    return [...this.derived]
  }
}
