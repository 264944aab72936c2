import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import type { ToolSchema } from '../../../src/llm/contract.ts'
import { createDeterministicEnvironment } from '../../../src/runtime/environment.ts'
import { deepFreeze, losslessSnapshot } from '../../../src/runtime/freeze.ts'
import {
  canonicalHeader, callConfigEquals, foldRequestHeader, headerEquals, type EpochHeader,
} from '../../../src/session/header.ts'
import type { SessionEventDataMap } from '../../../src/session/events.ts'
import { Session } from '../../../src/session/session.ts'
import { SessionStore } from '../../../src/session/store.ts'

const schema = (name: string): ToolSchema => ({ name, description: name, parameters: { type: 'object' } })
const config = { provider: 'mock', model: 'm' }
const header = (tools?: ToolSchema[], system?: string): EpochHeader => ({
  config, ...system === undefined ? {} : { system }, ...tools === undefined ? {} : { tools },
})
const userMessage = (id: string, text = 'hi') => ({
  content: [{ type: 'text' as const, text }], source: { kind: 'user' as const }, role: 'user' as const, id,
})

/** Appends an event type outside the typed vocabulary (the legacy ones). */
function appendUntyped(session: Session, type: string, data: unknown): unknown {
  return session.append(type as 'turn/start', data as SessionEventDataMap['turn/start'])
}

describe('8.5/27 request header fold', () => {
  it('8.5/27 headerEquals is tool-order sensitive', () => {
    const ab = header([schema('a'), schema('b')])
    const ba = header([schema('b'), schema('a')])
    expect(headerEquals(ab, header([schema('a'), schema('b')]))).toBe(true)
    expect(headerEquals(ab, ba)).toBe(false)
  })

  it('8.5/27 headerEquals is key-order sensitive inside a schema', () => {
    const reordered: ToolSchema = { description: 'a', name: 'a', parameters: { type: 'object' } }
    expect(headerEquals(header([schema('a')]), header([reordered]))).toBe(false)
  })

  it('8.5/27 absent and empty tool lists are equal', () => {
    expect(headerEquals(header(), header([]))).toBe(true)
    expect(headerEquals(header([]), header())).toBe(true)
    expect(headerEquals(header(), header([schema('a')]))).toBe(false)
  })

  it('8.5/27 headerEquals compares config, markers and system', () => {
    expect(headerEquals(header([], 'x'), header([], 'y'))).toBe(false)
    expect(headerEquals({ config }, { config: { ...config, model: 'n' } })).toBe(false)
    expect(headerEquals({ config }, { config, adapterDefaults: { maxTokens: true } })).toBe(false)
    expect(headerEquals({ config }, { config, adapterDefaults: {} })).toBe(true)
  })

  it('8.5/27 the fold returns the latest snapshot, canonicalised', () => {
    const events = [
      { type: 'request/header', seq: 0, data: { header: header([schema('a')], 'one'), reason: 'initial' } },
      { type: 'turn/start', seq: 1, data: { turn: 1 } },
      { type: 'request/header', seq: 2, data: { header: { ...header([], ''), adapterDefaults: {} }, reason: 'change' } },
    ]
    expect(foldRequestHeader(events.slice(0, 2))).toEqual(header([schema('a')], 'one'))
    expect(foldRequestHeader(events)).toStrictEqual({ config })
    expect(foldRequestHeader([])).toBeUndefined()
    expect(foldRequestHeader([events[1]!], header([], 'seed'))).toEqual(header([], 'seed'))
  })

  it('canonicalHeader keeps key order config, adapterDefaults, system, tools and drops empties', () => {
    const canonical = canonicalHeader({
      tools: [schema('a')], system: 's', adapterDefaults: { maxTokens: true }, config,
    } as EpochHeader)
    expect(Object.keys(canonical)).toEqual(['config', 'adapterDefaults', 'system', 'tools'])
    expect(Object.keys(canonicalHeader({ config, system: '', tools: [], adapterDefaults: {} }))).toEqual(['config'])
  })

  it('callConfigEquals compares field-wise, stop element-wise, absent differs from present', () => {
    expect(callConfigEquals({ ...config, stop: ['a'] }, { ...config, stop: ['a'] })).toBe(true)
    expect(callConfigEquals({ ...config, stop: ['a'] }, { ...config, stop: ['b'] })).toBe(false)
    expect(callConfigEquals({ ...config, stop: [] }, config)).toBe(false)
    expect(callConfigEquals({ ...config, maxTokens: 5 }, config)).toBe(false)
  })
})

describe('lossless snapshots', () => {
  class Point { x = 1 }
  const sparse: unknown[] = [1]
  sparse[2] = 3
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  const rejected: [string, unknown, RegExp][] = [
    ['undefined values', { a: undefined }, /\$\.a: undefined value/],
    ['functions', { f: () => 1 }, /\$\.f: function/],
    ['BigInt', { n: 1n }, /\$\.n: BigInt/],
    ['negative zero', { z: -0 }, /\$\.z: negative zero/],
    ['NaN', [NaN], /\$\[0\]: non-finite number NaN/],
    ['Infinity', { i: -Infinity }, /\$\.i: non-finite number -Infinity/],
    ['sparse arrays', sparse, /\$\[1\]: sparse array hole/],
    ['Map', { m: new Map() }, /\$\.m: a Map/],
    ['Set', { s: new Set() }, /\$\.s: a Set/],
    ['Date', { d: new Date(0) }, /\$\.d: a Date/],
    ['class instances', { p: new Point() }, /\$\.p: a class instance \(Point\)/],
    ['cycles', cyclic, /\$\.self: cycle/],
  ]
  for (const [label, value, message] of rejected) {
    it(`rejects ${label}, naming the path`, () => {
      expect(() => losslessSnapshot(value)).toThrow(message)
    })
  }

  it('copies plain JSON (shared references included) into a deep-frozen detached value', () => {
    const shared = { k: [1, 'two', null, true] }
    const source = { a: shared, b: shared, 'odd key': { n: 0 } }
    const copy = losslessSnapshot(source)
    expect(copy).toEqual(source)
    expect(copy.a).not.toBe(shared)
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.a) && Object.isFrozen(copy.a.k)).toBe(true)
    expect(() => losslessSnapshot({ bad: { [Symbol('s')]: 1 } })).toThrow(/symbol key/)
  })

  it('deepFreeze skips AbortSignal', () => {
    const signal = new AbortController().signal
    const frozen = deepFreeze({ nested: { signal } })
    expect(Object.isFrozen(frozen.nested)).toBe(true)
    expect(Object.isFrozen(signal)).toBe(false)
  })
})

describe('Session', () => {
  it('appends synchronously with contiguous seqs from 0 and environment time', () => {
    const environment = createDeterministicEnvironment()
    const session = new Session('s', { environment: () => environment })
    const first = session.append('turn/start', { turn: 1 })
    const second = session.append('step/start', { turn: 1, step: 1 })
    expect([first.seq, second.seq]).toEqual([0, 1])
    expect([first.time, second.time]).toEqual([0, 1])
    expect(session.events.map(event => event.seq)).toEqual([0, 1])
    expect(session.events[1]).toBe(second)
  })

  it('stores a deep-frozen snapshot, not the caller data', () => {
    const session = new Session('s')
    const data = { header: { config: { ...config }, tools: [schema('a')] }, reason: 'initial' as const }
    const event = session.append('request/header', data)
    data.header.tools.push(schema('b'))
    expect(event.data.header.tools).toHaveLength(1)
    expect(Object.isFrozen(event) && Object.isFrozen(event.data.header.tools![0]!.parameters)).toBe(true)
    expect(() => { (event.data.header.tools as ToolSchema[]).push(schema('c')) }).toThrow(TypeError)
  })

  it('rejects lossy data with the event and path in the message, leaving the log untouched', () => {
    const session = new Session('s')
    expect(() => session.append('turn/start', { turn: -0 })).toThrow('session "s" event 0 (turn/start) rejected: value is not lossless JSON at data.turn: negative zero')
    expect(session.events).toHaveLength(0)
  })

  it('marks surface events and rejects provenance on other types', () => {
    const session = new Session('s')
    const chunk = session.append('turn/start', { turn: 1 })
    const message = session.append('user/message', userMessage('m1'), { sourceEventSeqs: [chunk.seq] })
    expect(message.surfaceOp).toBe('append')
    expect(message.sourceEventSeqs).toEqual([0])
    expect(chunk.surfaceOp).toBeUndefined()
    expect(() => session.append('turn/end', { turn: 1, reason: { kind: 'completed' } }, { sourceEventSeqs: [0] })).toThrow(/only message-producing events/)
    expect(() => session.append('user/message', userMessage('m2'), { sourceEventSeqs: [5] })).toThrow(/must cite earlier events/)
  })

  it('rejects the legacy request/header-delta event and the "fallback" reason', () => {
    const session = new Session('s')
    expect(() => appendUntyped(session, 'request/header-delta', { tools: [] }))
      .toThrow('session "s" event 0 (request/header-delta) uses unsupported legacy request/header-delta format')
    expect(() => appendUntyped(session, 'request/header', { header: { config }, reason: 'fallback' }))
      .toThrow('session "s" event 0 (request/header) uses unsupported legacy request/header reason "fallback"')
    expect(() => foldRequestHeader([{ type: 'request/header-delta', seq: 4, data: {} }])).toThrow('event 4 uses unsupported legacy request/header-delta format')
    expect(session.events).toHaveLength(0)
  })

  it('throws on a reentrant append during publication', () => {
    const failures: unknown[] = []
    const session: Session = new Session('s', {
      publish: (_subject, event) => {
        if (event.type !== 'turn/start') return
        try {
          session.append('step/start', { turn: 1, step: 1 })
        } catch (error) {
          failures.push(error)
        }
      },
    })
    session.append('turn/start', { turn: 1 })
    expect(String(failures[0])).toContain('reentrant append while event 0 (turn/start) is being published')
    expect(session.events).toHaveLength(1)
    session.append('step/start', { turn: 1, step: 1 })
    expect(session.events).toHaveLength(2)
  })

  it('folds the request header incrementally into a deep-frozen value', () => {
    const session = new Session('s')
    expect(session.requestHeader()).toBeUndefined()
    session.append('request/header', { header: header([schema('a')]), reason: 'initial' })
    const first = session.requestHeader()!
    expect(Object.isFrozen(first) && Object.isFrozen(first.tools)).toBe(true)
    expect(session.requestHeader()).toBe(first)
    session.append('request/header', { header: header([schema('b')]), reason: 'change' })
    expect(session.requestHeader()?.tools?.map(tool => tool.name)).toEqual(['b'])
    expect(session.requestHeader()).toEqual(foldRequestHeader(session.events))
  })

  it('derives user, non-empty assistant and tool-result messages in log order', () => {
    const session = new Session('s')
    const model = { kind: 'model' as const, provider: 'mock', model: 'm' }
    session.append('user/message', userMessage('u1'))
    session.append('assistant/message', { turn: 1, step: 1, message: { content: [], source: model, role: 'assistant', id: 'empty' } })
    session.append('assistant/message', { turn: 1, step: 1, message: { content: [{ type: 'text', text: 'ok' }], source: model, role: 'assistant', id: 'a1' } })
    session.append('tool/result', {
      turn: 1,
      step: 1,
      message: {
        content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'r' }] }],
        source: { kind: 'tool', toolCallId: 'c1', name: 't' },
        role: 'user',
        id: 't1',
      },
    })
    const derived = session.deriveMessages()
    expect(derived.map(message => message.id)).toEqual(['u1', 'a1', 't1'])
    expect(derived[0]).toBe(session.events[0]!.data)
    expect(session.deriveMessages()).not.toBe(derived)
    expect(Object.isFrozen(derived[2])).toBe(true)
  })
})

describe('SessionStore', () => {
  it('creates sessions with environment ids, finds them, and drops them with the creating fiber', async () => {
    const root = new Context()
    root.provide('environment', createDeterministicEnvironment())
    await root.plugin(SessionStore)
    const seen: number[] = []
    root.on('session/event', (_session, event) => { seen.push(event.seq) })
    let created: Session | undefined
    const owner = root.plugin({
      name: 'owner',
      inject: ['sessions'],
      apply(ctx: Context) {
        created = ctx.sessions.create()
      },
    })
    await owner
    expect(created?.id).toBe('id-1')
    expect(root.sessions.get('id-1')).toBe(created)
    expect(() => root.sessions.create('id-1')).toThrow('session "id-1" already exists')
    created!.append('turn/start', { turn: 1 })
    expect(seen).toEqual([0])
    await owner.dispose()
    expect(root.sessions.get('id-1')).toBeUndefined()
  })

  it('contains a throwing session/event listener', async () => {
    const root = new Context()
    await root.plugin(SessionStore)
    root.on('session/event', () => { throw new Error('listener boom') })
    const session = root.sessions.create('x')
    expect(() => session.append('turn/start', { turn: 1 })).not.toThrow()
    expect(session.events).toHaveLength(1)
  })
})
