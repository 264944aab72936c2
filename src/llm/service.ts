import { Service } from '@deepseek-ai/cordis'
import type { Context } from '@deepseek-ai/cordis'
import { deepFreeze } from '../runtime/freeze.ts'
import { variantSeam } from '../runtime/variant-service.ts'
import type { LlmAdapter } from './adapter.ts'
import { callConfigEquals, callConfigOf } from './call-config.ts'
import { LlmError, failureOf } from './errors.ts'
import { CANONICAL_STREAM_ORDERING } from './stream-order.ts'
import type { GenerateOptions, LlmCallConfig, StreamChunk } from './contract.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    llm: LlmService
  }
  interface Events {
    /**
     * Waterfall around every model call. The innermost default streams from the
     * adapter; a listener may observe, wrap or replace the stream. Listener
     * throws propagate to the caller of `stream()`.
     */
    'llm/stream'(request: GenerateOptions, next: () => AsyncIterable<StreamChunk>): AsyncIterable<StreamChunk>
  }
}

/** Which adapter-default markers a prepared call materialised. */
export interface AdapterDefaultMarkers {
  reasoningEffort?: true
  maxTokens?: true
}

/** A call bound to one adapter registration, with its defaults resolved. Dispatchable once. */
export interface PreparedCall {
  /** The resolved call config (frozen, canonical key order). */
  readonly config: LlmCallConfig
  /** Which fields of `config` came from adapter defaults rather than the caller. */
  readonly adapterDefaults: AdapterDefaultMarkers
  /** Route capacity facts, when the adapter reports them. */
  readonly contextWindow?: number
  /**
   * Dispatches `request` through the `llm/stream` waterfall to the bound adapter.
   * Throws `LlmError` `INVALID_PREPARED_CALL` on a second dispatch or when the
   * request's call config differs from {@link config}.
   */
  stream(request: GenerateOptions): AsyncIterable<StreamChunk>
}

/**
 * The `llm` service: adapters keyed by provider plus the streaming model-call
 * API. Adapter failures become one terminal `finish` chunk; listener and
 * consumer failures stay thrown.
 */
export class LlmService extends Service {
  private readonly adapters = new Map<string, LlmAdapter>()

  constructor(ctx: Context) {
    super(ctx, 'llm')
  }

  /**
   * Registers `adapter` for its provider as an effect on the caller's fiber, so
   * it disappears with the registering plugin. Returns the disposer.
   */
  register(adapter: LlmAdapter): () => Promise<void> {
    const adapters = this.adapters
    return this.ctx.effect(() => {
      if (adapters.has(adapter.provider)) {
        throw new LlmError(`an adapter for provider "${adapter.provider}" is already registered`, 'DUPLICATE_ADAPTER')
      }
      adapters.set(adapter.provider, adapter)
      return () => {
        if (adapters.get(adapter.provider) === adapter) adapters.delete(adapter.provider)
      }
    }, `llm.register(${JSON.stringify(adapter.provider)})`)
  }

  /** The adapter serving `provider`; throws `LlmError` `NO_ADAPTER` when none does. */
  adapterFor(provider: string): LlmAdapter {
    const adapter = this.adapters.get(provider)
    if (!adapter) throw new LlmError(`no adapter registered for provider "${provider}"`, 'NO_ADAPTER')
    return adapter
  }

  /**
   * Binds `config` to the adapter serving its provider and materialises that
   * adapter's defaults for unset `maxTokens` / `reasoningEffort`.
   * Rejects with `LlmError` `NO_ADAPTER` when no adapter serves the provider.
   */
  async prepareCall(config: LlmCallConfig): Promise<PreparedCall> {
    const adapter = this.adapterFor(config.provider)
    const info = await adapter.modelInfo?.(config.model) ?? {}
    const useMaxTokens = config.maxTokens === undefined && info.defaultMaxTokens !== undefined
    const useEffort = config.reasoningEffort === undefined && info.defaultReasoningEffort !== undefined
    const resolved = deepFreeze(callConfigOf({
      ...config,
      ...useEffort ? { reasoningEffort: info.defaultReasoningEffort } : {},
      ...useMaxTokens ? { maxTokens: info.defaultMaxTokens } : {},
    }))
    const adapterDefaults: AdapterDefaultMarkers = deepFreeze({
      ...useEffort ? { reasoningEffort: true as const } : {},
      ...useMaxTokens ? { maxTokens: true as const } : {},
    })
    let dispatched = false
    const service = this
    return Object.freeze({
      config: resolved,
      adapterDefaults,
      ...info.contextWindow === undefined ? {} : { contextWindow: info.contextWindow },
      stream(request: GenerateOptions) {
        if (dispatched) throw new LlmError('a prepared call can only be dispatched once', 'INVALID_PREPARED_CALL')
        if (!callConfigEquals(request, resolved)) {
          throw new LlmError('the request\'s call config differs from the prepared call', 'INVALID_PREPARED_CALL')
        }
        dispatched = true
        return service.dispatch(request, adapter)
      },
    })
  }

  /**
   * Streams one model call through the `llm/stream` waterfall. The innermost
   * default hands the very request object it receives to the adapter serving
   * `request.provider`. When the active variant has `streamOrder`, it rebuilds
   * the request first.
   */
  stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
    return this.dispatch(request)
  }

  private dispatch(request: GenerateOptions, bound?: LlmAdapter): AsyncIterable<StreamChunk> {
    const streamOrder = variantSeam(this.ctx, CANONICAL_STREAM_ORDERING).streamOrder
    const effective = streamOrder ? streamOrder(request) : request
    return this.ctx.waterfall('llm/stream', effective, () => adapterStream(this, effective, bound))
  }
}

/** A thrown adapter failure as the stream protocol's terminal chunk. */
function failureChunk(error: unknown, signal: AbortSignal | undefined): StreamChunk {
  const failure = failureOf(error)
  const aborted = signal?.aborted === true || failure.code === 'ABORTED'
  return { type: 'finish', reason: aborted ? { kind: 'aborted', failure } : { kind: 'error', failure } }
}

/** The innermost stage: adapter selection, dispatch and iteration, with every adapter throw turned into a terminal chunk. */
async function* adapterStream(service: LlmService, request: GenerateOptions, bound?: LlmAdapter): AsyncGenerator<StreamChunk> {
  let iterator: AsyncIterator<StreamChunk>
  try {
    const adapter = bound ?? service.adapterFor(request.provider)
    iterator = adapter.stream(request)[Symbol.asyncIterator]()
  } catch (error) {
    yield failureChunk(error, request.signal)
    return
  }
  let finished = false
  try {
    while (true) {
      let step: IteratorResult<StreamChunk>
      try {
        step = await iterator.next()
      } catch (error) {
        finished = true
        yield failureChunk(error, request.signal)
        return
      }
      if (step.done) {
        finished = true
        return
      }
      yield step.value
    }
  } finally {
    if (!finished) await iterator.return?.()
  }
}
