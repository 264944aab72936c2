/**
 * The scripted model of the dsh target: a dsh-llm adapter that records every
 * request it receives and answers each with the same short text reply.
 */
import type { DshPackages } from './packages.ts'

/** Provider route the adapter serves and the agent's requests name. */
export const MOCK_PROVIDER = 'mock'
/** Model id the agent's requests name. */
export const MOCK_MODEL = 'mock'
/** The text of every reply. */
export const MOCK_REPLY = 'ok'

/** A text reply as raw stream chunks: block-start, one text-delta per character, block-end, usage, finish `stop`. */
function textReply(text: string): object[] {
  const characters = Array.from(text)
  return [
    { type: 'block-start', index: 0, blockType: 'text' },
    ...characters.map(character => ({ type: 'text-delta', index: 0, text: character })),
    { type: 'block-end', index: 0, block: { type: 'text', text } },
    { type: 'usage', usage: { inputTokens: 1, outputTokens: characters.length } },
    { type: 'finish', reason: { kind: 'stop' } },
  ]
}

async function* replay(chunks: readonly object[]): AsyncGenerator<object> {
  yield* chunks
}

/** A scripted model: answers every call with {@link MOCK_REPLY}; `requests` holds each request object by reference, in dispatch order. */
export interface RecordingMockAdapter {
  readonly requests: object[]
  stream(request: object): AsyncIterable<object>
}

const classes = new WeakMap<DshPackages, new () => RecordingMockAdapter>()

/** The scripted model's class for one set of dsh packages: a subclass of their dsh-llm adapter (made once per set). */
export function recordingAdapterClass(dsh: DshPackages): new () => RecordingMockAdapter {
  let made = classes.get(dsh)
  if (!made) {
    made = class extends dsh.LlmAdapter implements RecordingMockAdapter {
      readonly requests: object[] = []

      override stream(request: object): AsyncIterable<object> {
        this.requests.push(request)
        return replay(textReply(MOCK_REPLY))
      }
    }
    classes.set(dsh, made)
  }
  return made
}

/** The routes and models a scripted model serves in place of a live adapter entry. */
export interface StandInRoutes {
  providers: readonly string[]
  models: readonly string[]
}

/**
 * The plugin mounted in place of a live model adapter's entry (`model:`): it
 * registers the scripted model on the application's own `llm` service for
 * the given routes, advertising the given models. Its config (the live
 * adapter's keys, endpoints and thinking settings) is ignored: nothing of it
 * reaches a network.
 */
export function standInModelPlugin(dsh: DshPackages, routes: StandInRoutes): { name: string, inject: string[], apply(ctx: { get(name: string): unknown }): void } {
  const Recording = recordingAdapterClass(dsh)
  class StandIn extends (Recording as unknown as new () => RecordingMockAdapter & { listModels(provider: string): Promise<readonly object[]> }) {
    override listModels(provider: string): Promise<readonly object[]> {
      return Promise.resolve(routes.models.map(id => ({ provider, id, name: id })))
    }
  }
  return {
    name: 'loadrace-scripted-model',
    inject: ['llm'],
    apply(ctx) {
      const llm = ctx.get('llm') as { registerAdapter(providers: string[], adapter: object): unknown }
      llm.registerAdapter([...routes.providers], new StandIn())
    },
  }
}
