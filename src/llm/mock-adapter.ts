import type { LlmAdapter, ModelInfo } from './adapter.ts'
import type { GenerateOptions, StreamChunk } from './contract.ts'

/** A script step that never answers: it waits for the request's abort signal, then throws its reason. */
export interface MockHang {
  readonly kind: 'hang'
}

/** A script step that streams `chunks`, then throws `Error(message)` mid-iteration. */
export interface MockFailure {
  readonly kind: 'fail'
  readonly chunks: readonly StreamChunk[]
  readonly message: string
}

/** One scripted reply: fixed chunks, chunks computed from the request, a hang, or a mid-stream failure. */
export type MockStep = readonly StreamChunk[] | ((request: GenerateOptions) => readonly StreamChunk[]) | MockHang | MockFailure

/** Options of a {@link MockAdapter}. */
export interface MockAdapterOptions {
  /** Provider route served; default `mock`. */
  provider?: string
  /** Replies consumed in order, one per `stream()` call. */
  script?: readonly MockStep[]
  /** Used for every call once the script is exhausted; without it, an exhausted script throws. */
  fallback?: MockStep
  /** Facts returned for every model (defaults the LLM service materialises). */
  modelInfo?: ModelInfo
}

/** One tool call of {@link MockAdapter.toolCallResponse}. */
export interface MockToolCall {
  id: string
  name: string
  arguments: string
}

const HANG: MockHang = Object.freeze({ kind: 'hang' })

function isSpecial(step: MockStep): step is MockHang | MockFailure {
  return !Array.isArray(step) && typeof step === 'object'
}

async function* waitForAbort(signal: AbortSignal): AsyncGenerator<StreamChunk> {
  if (!signal.aborted) {
    await new Promise<void>(resolve => signal.addEventListener('abort', () => resolve(), { once: true }))
  }
  throw signal.reason
}

async function* replay(chunks: readonly StreamChunk[], failure?: string): AsyncGenerator<StreamChunk> {
  yield* chunks
  if (failure !== undefined) throw new Error(failure)
}

/**
 * The scripted model: the only fake in the reference. Every request object is
 * recorded by reference in {@link requests} before its script step is consumed.
 */
export class MockAdapter implements LlmAdapter {
  readonly provider: string
  /** Every request this adapter received, by reference, in dispatch order. */
  readonly requests: GenerateOptions[] = []
  private readonly script: MockStep[]
  private readonly fallback: MockStep | undefined
  private readonly info: ModelInfo

  constructor(options: MockAdapterOptions = {}) {
    this.provider = options.provider ?? 'mock'
    this.script = [...options.script ?? []]
    this.fallback = options.fallback
    this.info = options.modelInfo ?? {}
  }

  /** Appends replies to the script. */
  enqueue(...steps: MockStep[]): void {
    this.script.push(...steps)
  }

  /** Replies not consumed yet. */
  get remaining(): number {
    return this.script.length
  }

  /** The configured model facts (the same for every model). */
  modelInfo(): ModelInfo {
    return this.info
  }

  /** Records `request`, then consumes the next script step (throws `MockAdapter: script exhausted` when none is left). */
  stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
    this.requests.push(request)
    const step = this.script.length > 0 ? this.script.shift()! : this.fallback
    if (step === undefined) throw new Error('MockAdapter: script exhausted')
    if (isSpecial(step)) return step.kind === 'hang' ? waitForAbort(request.signal) : replay(step.chunks, step.message)
    return replay(typeof step === 'function' ? step(request) : step)
  }

  /** The hang step: waits for the abort signal. */
  static hang(): MockHang {
    return HANG
  }

  /** A step that streams `chunks`, then fails while being iterated. */
  static fail(message: string, chunks: readonly StreamChunk[] = []): MockFailure {
    return Object.freeze({ kind: 'fail', chunks, message })
  }

  /** A text reply: block-start, one text-delta per character, block-end, usage, finish `stop`. */
  static textResponse(text: string): StreamChunk[] {
    const characters = Array.from(text)
    return [
      { type: 'block-start', index: 0, blockType: 'text' },
      ...characters.map((character): StreamChunk => ({ type: 'text-delta', index: 0, text: character })),
      { type: 'block-end', index: 0, block: { type: 'text', text } },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: characters.length } },
      { type: 'finish', reason: { kind: 'stop' } },
    ]
  }

  /** A reply calling tools: per call block-start, one tool-call-delta, block-end; then usage and finish `tool-calls`. */
  static toolCallResponse(calls: readonly MockToolCall[]): StreamChunk[] {
    const chunks: StreamChunk[] = []
    calls.forEach((call, index) => {
      chunks.push(
        { type: 'block-start', index, blockType: 'tool-call' },
        { type: 'tool-call-delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments },
        { type: 'block-end', index, block: { type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments } },
      )
    })
    chunks.push(
      { type: 'usage', usage: { inputTokens: 1, outputTokens: calls.length } },
      { type: 'finish', reason: { kind: 'tool-calls' } },
    )
    return chunks
  }
}
