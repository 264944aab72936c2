import type {
  AssistantMessage, LlmFailure, StreamChunk, TokenUsage, UserMessage,
} from '../llm/contract.ts'
import type { JsonValue } from '../runtime/freeze.ts'
import type { RequestHeaderData } from './header.ts'

/** Which pending list an inbox splice edits. */
export type InboxTarget = 'next-turn' | 'next-step'

/** A durable inbox mutation: an insertion on `followup()`, a pure deletion on claim. */
export interface InboxSplice {
  target: InboxTarget
  start: number
  removedCount?: number
  inserted: UserMessage[]
  outcome?: 'canceled'
}

/** How a turn ended. */
export type TurnEndReason =
  | { kind: 'completed' }
  | { kind: 'aborted', reason: JsonValue }
  | { kind: 'blocked' }
  | { kind: 'error', error: LlmFailure }
  | { kind: 'max-tokens' }
  | { kind: 'interrupted' }

/** Route metadata of the requests that follow; logged only when it changes. */
export interface RequestContextData {
  provider: string
  model: string
  contextWindow?: number
}

/** Turn/step coordinates carried by step-scoped events. */
export interface StepRef {
  turn: number
  step: number
}

/**
 * Event type → data shape of the session log. An interface, so other modules
 * may add event types by declaration merging.
 */
export interface SessionEventDataMap {
  'agent/inbox/spliced': InboxSplice
  'turn/start': { turn: number }
  'step/start': StepRef
  'user/message': UserMessage
  'request/header': RequestHeaderData
  'request/context': RequestContextData
  'assistant/chunk': StepRef & { chunk: StreamChunk }
  'assistant/message': StepRef & { message: AssistantMessage, usage?: TokenUsage, interrupted?: true }
  'tool/call': StepRef & { callId: string, name: string, arguments: string }
  'tool/result': StepRef & { message: UserMessage }
  'step/end': StepRef
  'turn/end': { turn: number, reason: TurnEndReason }
  'session/end-seed': Record<string, never>
}

/** Every session event type. */
export type SessionEventType = keyof SessionEventDataMap

/** The event types that produce model messages; only they carry `surfaceOp` / `sourceEventSeqs`. */
export const SURFACE_EVENT_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/result'])

/** The envelope of one logged event (deep-frozen). `seq` is the log length at append time. */
export interface SessionEventEnvelope<K extends SessionEventType> {
  readonly type: K
  readonly seq: number
  /** Environment milliseconds at append time. */
  readonly time: number
  readonly data: SessionEventDataMap[K]
  /** Surface types only: always `'append'` here (no compaction in the reference). */
  readonly surfaceOp?: 'append'
  /** Surface types only: earlier events this one was derived from (e.g. the chunks of a message). */
  readonly sourceEventSeqs?: readonly number[]
  readonly ignorable?: true
}

/** A logged event, discriminated by `type`. */
export type SessionEvent<K extends SessionEventType = SessionEventType> = { [T in K]: SessionEventEnvelope<T> }[K]
