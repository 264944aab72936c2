/**
 * The model-facing vocabulary shared by the LLM service, the session log, the
 * tool registry and the prompt assembly. Only these shapes cross the wire.
 */

/** JSON-schema description of one tool as the model sees it. Only these three fields are model-facing. */
export interface ToolSchema {
  name: string
  description: string
  /** A JSON Schema object for the tool's arguments. */
  parameters: Record<string, unknown>
}

/** Which model a call goes to, and how. Equality is field-wise; `stop` element-wise; absent differs from present. */
export interface LlmCallConfig {
  provider: string
  model: string
  reasoningEffort?: string
  temperature?: number
  maxTokens?: number
  stop?: string[]
}

export interface TextBlock {
  type: 'text'
  text: string
}

export interface ToolCallBlock {
  type: 'tool-call'
  /** Provider-issued call id; correlates the matching tool result. */
  id: string
  name: string
  /** Raw JSON text as produced by the model. */
  arguments: string
}

export interface ToolResultBlock {
  type: 'tool-result'
  toolCallId: string
  content: TextBlock[]
  isError?: boolean
}

export type ContentBlock = TextBlock | ToolCallBlock | ToolResultBlock

/** Where a message came from. */
export type MessageSource =
  | { kind: 'user' }
  | { kind: 'plugin', plugin: string }
  | { kind: 'model', provider: string, model: string }
  | { kind: 'tool', toolCallId: string, name: string }

/** One immutable message, shared by delivery, the durable log and model requests. */
export interface Message {
  readonly id: string
  readonly role: 'user' | 'assistant'
  readonly content: readonly ContentBlock[]
  readonly source: MessageSource
}

export interface UserMessage extends Message {
  readonly role: 'user'
}

export interface AssistantMessage extends Message {
  readonly role: 'assistant'
}

/** Serialisable failure facts. */
export interface LlmFailure {
  readonly message: string
  readonly code: string
  readonly status?: number
  readonly providerRetryAfterMs?: number
  readonly requestId?: string
}

export interface TokenUsage {
  inputTokens: number
  outputTokens: number
}

export type FinishReason =
  | { kind: 'stop' }
  | { kind: 'tool-calls' }
  | { kind: 'max-tokens' }
  | { kind: 'aborted', failure: LlmFailure }
  | { kind: 'error', failure: LlmFailure }

/** The raw streaming protocol adapters emit. `block-end` carries the assembled block. */
export type StreamChunk =
  | { type: 'block-start', index: number, blockType: ContentBlock['type'] }
  | { type: 'text-delta', index: number, text: string }
  | { type: 'tool-call-delta', index: number, id: string, name?: string, argumentsDelta: string }
  | { type: 'block-end', index: number, block: ContentBlock }
  | { type: 'usage', usage: TokenUsage }
  | { type: 'finish', reason: FinishReason }

/**
 * One model request. Loop-built requests carry exactly these keys in exactly
 * this order: the call-config fields, then messages, system?, tools?,
 * sessionId, signal, purpose?.
 */
export interface GenerateOptions extends LlmCallConfig {
  messages: readonly Message[]
  system?: string
  tools?: readonly ToolSchema[]
  sessionId: string
  signal: AbortSignal
  purpose?: string
}
