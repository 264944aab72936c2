import type { GenerateOptions, StreamChunk } from './contract.ts'

/** Exact-model facts an adapter may report; the LLM service materialises the defaults into prepared calls. */
export interface ModelInfo {
  /** Context window in tokens; logged in `request/context` when known. */
  contextWindow?: number
  /** Used as `maxTokens` when the call config leaves it unset. */
  defaultMaxTokens?: number
  /** Used as `reasoningEffort` when the call config leaves it unset. */
  defaultReasoningEffort?: string
}

/** A model backend serving one provider route. */
export interface LlmAdapter {
  /** The provider route this adapter serves (the request's `provider`). */
  readonly provider: string
  /** Facts about one model of this provider; absent means none. */
  modelInfo?(model: string): ModelInfo | Promise<ModelInfo>
  /**
   * Streams one model call. Throwing (synchronously or while iterating) is an
   * adapter failure: the service turns it into one terminal `finish` chunk.
   */
  stream(request: GenerateOptions): AsyncIterable<StreamChunk>
}
