import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { LlmError, errorChainText, failureOf } from '../../../src/llm/errors.ts'
import { MockAdapter } from '../../../src/llm/mock-adapter.ts'
import { LlmService } from '../../../src/llm/service.ts'
import type { GenerateOptions, StreamChunk } from '../../../src/llm/contract.ts'
import { deepFreeze } from '../../../src/runtime/freeze.ts'
import { VariantPlugin } from '../../../src/variants/plugin.ts'
import { streamNormalize } from '../../../src/variants/stream-normalize.ts'

/** A fresh root with LlmService and, when given, `adapter` registered by its own plugin. */
async function llmRoot(adapter?: MockAdapter): Promise<Context> {
  const root = new Context()
  await root.plugin(LlmService)
  if (adapter) {
    await root.plugin({ name: 'adapter', inject: ['llm'], apply: (ctx: Context) => { ctx.llm.register(adapter) } })
  }
  return root
}

function request(overrides: Partial<GenerateOptions> = {}): GenerateOptions {
  return deepFreeze({
    provider: 'mock',
    model: 'm',
    messages: [],
    sessionId: 's',
    signal: new AbortController().signal,
    ...overrides,
  })
}

async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

describe('LlmService.stream', () => {
  it('hands the very (frozen) request object to the adapter', async () => {
    const adapter = new MockAdapter({ script: [MockAdapter.textResponse('ok')] })
    const root = await llmRoot(adapter)
    const seen: GenerateOptions[] = []
    root.on('llm/stream', (req, next) => { seen.push(req); return next() })
    const sent = request()
    const chunks = await collect(root.llm.stream(sent))
    expect(chunks).toEqual(MockAdapter.textResponse('ok'))
    expect(adapter.requests).toHaveLength(1)
    expect(adapter.requests[0]).toBe(sent)
    expect(seen[0]).toBe(sent)
    expect(Object.isFrozen(adapter.requests[0])).toBe(true)
  })

  it('turns an adapter throw at dispatch into one terminal error finish chunk', async () => {
    const adapter = new MockAdapter()
    const root = await llmRoot(adapter)
    const chunks = await collect(root.llm.stream(request()))
    expect(chunks).toEqual([{
      type: 'finish',
      reason: { kind: 'error', failure: { message: 'MockAdapter: script exhausted', code: 'UNKNOWN' } },
    }])
    expect(adapter.requests).toHaveLength(1)
  })

  it('turns an adapter throw while iterating into a terminal error finish after the streamed chunks', async () => {
    const head: StreamChunk[] = [{ type: 'block-start', index: 0, blockType: 'text' }]
    const root = await llmRoot(new MockAdapter({ script: [MockAdapter.fail('socket closed', head)] }))
    const chunks = await collect(root.llm.stream(request()))
    expect(chunks).toEqual([
      ...head,
      { type: 'finish', reason: { kind: 'error', failure: { message: 'socket closed', code: 'UNKNOWN' } } },
    ])
  })

  it('reports an aborted hang as an aborted finish', async () => {
    const root = await llmRoot(new MockAdapter({ script: [MockAdapter.hang()] }))
    const controller = new AbortController()
    const pending = collect(root.llm.stream(request({ signal: controller.signal })))
    controller.abort({ kind: 'cancel' })
    const chunks = await pending
    expect(chunks).toHaveLength(1)
    expect(chunks[0]).toMatchObject({ type: 'finish', reason: { kind: 'aborted' } })
  })

  it('turns a missing adapter (selection) into an error finish with code NO_ADAPTER', async () => {
    const root = await llmRoot()
    const chunks = await collect(root.llm.stream(request({ provider: 'nowhere' })))
    expect(chunks).toEqual([{
      type: 'finish',
      reason: { kind: 'error', failure: { message: 'no adapter registered for provider "nowhere"', code: 'NO_ADAPTER' } },
    }])
  })

  it('keeps llm/stream listener throws thrown', async () => {
    const adapter = new MockAdapter({ script: [MockAdapter.textResponse('x')] })
    const root = await llmRoot(adapter)
    root.on('llm/stream', () => { throw new Error('middleware failed') })
    expect(() => root.llm.stream(request())).toThrow('middleware failed')
    expect(adapter.requests).toHaveLength(0)
  })

  it('applies the active variant\'s streamOrder before the waterfall (a rebuilt request reaches the adapter)', async () => {
    const adapter = new MockAdapter({ script: [MockAdapter.textResponse('x')] })
    const root = await llmRoot(adapter)
    await root.plugin(VariantPlugin, streamNormalize)
    const tool = (name: string) => ({ name, description: name, parameters: {} })
    const sent = request({ tools: [tool('zulu'), tool('alpha')] })
    await collect(root.llm.stream(sent))
    expect(adapter.requests[0]).not.toBe(sent)
    expect(adapter.requests[0]!.tools!.map(entry => entry.name)).toEqual(['alpha', 'zulu'])
  })
})

describe('LlmService adapters and prepared calls', () => {
  it('drops an adapter together with the plugin that registered it', async () => {
    const root = await llmRoot()
    const fiber = root.plugin({ name: 'owner', inject: ['llm'], apply: (ctx: Context) => { ctx.llm.register(new MockAdapter()) } })
    await fiber
    expect(root.llm.adapterFor('mock').provider).toBe('mock')
    expect(() => root.llm.register(new MockAdapter())).toThrow('an adapter for provider "mock" is already registered')
    await fiber.dispose()
    expect(() => root.llm.adapterFor('mock')).toThrow('no adapter registered for provider "mock"')
  })

  it('rejects prepareCall with LlmError NO_ADAPTER when no adapter serves the provider', async () => {
    const root = await llmRoot()
    const failure = await root.llm.prepareCall({ provider: 'nowhere', model: 'm' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(LlmError)
    expect((failure as LlmError).code).toBe('NO_ADAPTER')
  })

  it('materialises adapter defaults and marks them', async () => {
    const adapter = new MockAdapter({ modelInfo: { defaultMaxTokens: 64, contextWindow: 1000 } })
    const root = await llmRoot(adapter)
    const prepared = await root.llm.prepareCall({ provider: 'mock', model: 'm' })
    expect(prepared.config).toEqual({ provider: 'mock', model: 'm', maxTokens: 64 })
    expect(prepared.adapterDefaults).toEqual({ maxTokens: true })
    expect(prepared.contextWindow).toBe(1000)
    const explicit = await root.llm.prepareCall({ provider: 'mock', model: 'm', maxTokens: 8 })
    expect(explicit.config.maxTokens).toBe(8)
    expect(explicit.adapterDefaults).toEqual({})
  })

  it('dispatches a prepared call once only', async () => {
    const adapter = new MockAdapter({ script: [MockAdapter.textResponse('a'), MockAdapter.textResponse('b')] })
    const root = await llmRoot(adapter)
    const prepared = await root.llm.prepareCall({ provider: 'mock', model: 'm' })
    await collect(prepared.stream(request()))
    expect(() => prepared.stream(request())).toThrow(expect.objectContaining({ code: 'INVALID_PREPARED_CALL' }))
    expect(adapter.requests).toHaveLength(1)
  })

  it('refuses a request whose call config differs from the prepared one', async () => {
    const adapter = new MockAdapter({ script: [MockAdapter.textResponse('a')] })
    const root = await llmRoot(adapter)
    const prepared = await root.llm.prepareCall({ provider: 'mock', model: 'm' })
    expect(() => prepared.stream(request({ temperature: 0.5 }))).toThrow(expect.objectContaining({ code: 'INVALID_PREPARED_CALL' }))
    expect(adapter.requests).toHaveLength(0)
    expect(await collect(prepared.stream(request()))).toEqual(MockAdapter.textResponse('a'))
  })
})

describe('failures', () => {
  it('renders the error chain: message, aggregate members in brackets, then causes', () => {
    const inner = new Error('connect refused')
    const wrapped = new TypeError('fetch failed', { cause: inner })
    expect(errorChainText(wrapped)).toBe('fetch failed: connect refused')
    const aggregate = new AggregateError([new Error('a'), 'b'], 'several', { cause: { message: 'root' } })
    expect(errorChainText(aggregate)).toBe('several [a; b]: root')
    expect(errorChainText(new Error(''))).toBe('Error')
    expect(errorChainText(42)).toBe('42')
  })

  it('gives non-LlmError failures code UNKNOWN and keeps an LlmError\'s facts', () => {
    expect(failureOf(new Error('x', { cause: new Error('y') }))).toEqual({ message: 'x: y', code: 'UNKNOWN' })
    const error = new LlmError('rate limited', 'RATE_LIMIT', { status: 429 })
    expect(failureOf(error)).toEqual({ message: 'rate limited', code: 'RATE_LIMIT', status: 429 })
    expect(Object.keys(failureOf(error))).toEqual(['message', 'code', 'status'])
  })
})

describe('MockAdapter', () => {
  it('records each request by reference before consuming its step, and uses the fallback once exhausted', async () => {
    const adapter = new MockAdapter({
      script: [req => MockAdapter.textResponse(req.model)],
      fallback: MockAdapter.textResponse('again'),
    })
    const first = request({ model: 'echo' })
    expect(await collect(adapter.stream(first))).toEqual(MockAdapter.textResponse('echo'))
    expect(await collect(adapter.stream(request()))).toEqual(MockAdapter.textResponse('again'))
    expect(adapter.requests[0]).toBe(first)
    expect(() => new MockAdapter().stream(request())).toThrow('MockAdapter: script exhausted')
  })

  it('builds text and tool-call responses', () => {
    expect(MockAdapter.textResponse('hey').map(chunk => chunk.type)).toEqual([
      'block-start', 'text-delta', 'text-delta', 'text-delta', 'block-end', 'usage', 'finish',
    ])
    const calls = MockAdapter.toolCallResponse([{ id: 'c1', name: 'alpha', arguments: '{}' }])
    expect(calls).toContainEqual({ type: 'block-end', index: 0, block: { type: 'tool-call', id: 'c1', name: 'alpha', arguments: '{}' } })
    expect(calls.at(-1)).toEqual({ type: 'finish', reason: { kind: 'tool-calls' } })
  })
})
