import { describe, expect, it } from 'vitest'
import { hashOf, headerToolNames, project, projectWithBytes, type ProjectionInput } from '../../../harness/projection/projection.ts'
import { type StuckInfo } from '../../../harness/verdict/outcome.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import type { LiveRecord, Observation } from '../../../harness/targets/target.ts'

/**
 * The projection is what every verdict compares. Each part gets a test that
 * fails when the part is dropped, emptied or reordered: exact values in order
 * (key order included), and a hash that moves when only that part's order does.
 */

const tool = (name: string) => ({ name, description: `${name} tool`, parameters: { type: 'object', properties: { [`${name}_arg`]: { type: 'string' } } } })

/** Two requests in dispatch order, each with an abort signal the projection must drop. */
function requests(): Record<string, unknown>[] {
  return [
    { provider: 'mock', model: 'm', messages: [{ role: 'user', id: 'id-2' }], tools: [tool('alpha'), tool('beta')], sessionId: 'id-1', signal: new AbortController().signal },
    { provider: 'mock', model: 'm', messages: [{ role: 'user', id: 'id-2' }, { role: 'assistant', id: 'id-3' }], tools: [tool('alpha'), tool('beta')], sessionId: 'id-1', signal: new AbortController().signal },
  ]
}

function events(): Record<string, unknown>[] {
  return [
    { type: 'turn/start', seq: 0, time: 1700, data: { turn: 1 } },
    { type: 'request/header', seq: 1, time: 1701, data: { header: { tools: [tool('alpha')] }, reason: 'initial' } },
    { type: 'turn/end', seq: 2, time: 1702, data: { turn: 1, reason: { kind: 'completed' } } },
  ]
}

function live(): LiveRecord[] {
  return [
    { event: 'agent/status', status: 'running' },
    { event: 'agent/error', turn: 1, step: 0, message: 'first failure' },
    { event: 'agent/status', status: 'idle' },
    { event: 'agent/status', status: 'running' },
    { event: 'agent/error', turn: 2, step: 0, message: 'second failure' },
    { event: 'agent/status', status: 'idle' },
  ]
}

function observation(overrides: Partial<Observation> = {}): Observation {
  return { header: { config: { provider: 'mock', model: 'm' }, system: 'sys', tools: [tool('alpha'), tool('beta')] }, requests: requests(), events: events(), live: live(), ...overrides }
}

const STUCK: StuckInfo = { reason: 'no-progress', phase: 'turns', waiting: ['tool-alpha', 'tool-beta'] }

function input(overrides: Partial<ProjectionInput> = {}): ProjectionInput {
  return { observation: observation(), loadErrors: ['load one', 'load two'], stuck: null, ...overrides }
}

const json = (value: unknown) => JSON.stringify(value)
const hash = (value: ProjectionInput) => hashOf(projectWithBytes(value).json)
const reversed = <T>(items: readonly T[]): T[] => [...items].reverse()

describe('the projection keeps each part whole and in order', () => {
  it('header: the fold itself, key order and tool order included', () => {
    const projection = project(input())
    expect(json(projection.header)).toBe(json(observation().header))
    expect(headerToolNames(projection)).toEqual(['alpha', 'beta'])
    expect(project(input({ observation: observation({ header: undefined }) })).header).toBeNull()
  })

  it('requests: every dispatched request in dispatch order, each without its signal and in its own key order', () => {
    const projection = project(input())
    expect(json(projection.requests)).toBe(json(requests().map(({ signal: _signal, ...rest }) => rest)))
    expect(projection.requests).toHaveLength(2)
    expect(Object.keys(projection.requests[1] as object)).toEqual(['provider', 'model', 'messages', 'tools', 'sessionId'])
  })

  it('events: the whole session log in order, each without its time', () => {
    const projection = project(input())
    expect(json(projection.events)).toBe(json(events().map(({ time: _time, ...rest }) => rest)))
  })

  it('statuses: every agent/status and agent/error record, in emission order', () => {
    expect(project(input()).live).toEqual(live())
  })

  it('errors: the agent/error messages in order, and the load errors in logging order', () => {
    expect(project(input()).errors).toEqual({ load: ['load one', 'load two'], turn: ['first failure', 'second failure'] })
  })

  it('stuck state: why and where a run stopped, and what it waited for', () => {
    expect(project(input({ stuck: STUCK })).stuck).toEqual(STUCK)
    expect(project(input()).stuck).toBeNull()
  })

  it('outcome: stuck before load-error before turn-error before completed', () => {
    expect(project(input({ stuck: STUCK })).outcome).toBe('stuck')
    expect(project(input()).outcome).toBe('load-error')
    expect(project(input({ observation: undefined, loadErrors: [] })).outcome).toBe('load-error')
    expect(project(input({ loadErrors: [] })).outcome).toBe('turn-error')
    expect(project(input({ loadErrors: [], observation: observation({ live: live().filter(record => record.event !== 'agent/error') }) })).outcome).toBe('completed')
  })
})

describe('reordering or dropping one part alone changes the bytes', () => {
  const header = observation().header as { tools: unknown[] }
  const cases: [string, ProjectionInput][] = [
    ['header tools reordered', input({ observation: observation({ header: { ...header, tools: reversed(header.tools) } }) })],
    ['header keys reordered', input({ observation: observation({ header: { tools: header.tools, system: 'sys', config: { provider: 'mock', model: 'm' } } }) })],
    ['header dropped', input({ observation: observation({ header: undefined }) })],
    ['requests reordered', input({ observation: observation({ requests: reversed(requests()) }) })],
    ['a request dropped', input({ observation: observation({ requests: requests().slice(1) }) })],
    ['tools of a request reordered', input({ observation: observation({ requests: requests().map(request => ({ ...request, tools: reversed((request as { tools: unknown[] }).tools) })) }) })],
    ['events reordered', input({ observation: observation({ events: reversed(events()) }) })],
    ['an event dropped', input({ observation: observation({ events: events().slice(1) }) })],
    ['statuses reordered', input({ observation: observation({ live: [live()[2]!, live()[1]!, live()[0]!, ...live().slice(3)] }) })],
    ['turn errors reordered', input({ observation: observation({ live: live().map(record => record.event === 'agent/error' ? { ...record, message: record.turn === 1 ? 'second failure' : 'first failure' } : record) }) })],
    ['load errors reordered', input({ loadErrors: ['load two', 'load one'] })],
    ['a load error dropped', input({ loadErrors: ['load one'] })],
  ]

  it.each(cases)('%s', (_name, changed) => {
    expect(hash(changed)).not.toBe(hash(input()))
  })

  it('stuck state dropped or its waiting list reordered', () => {
    const stuck = input({ stuck: STUCK })
    expect(hash(input({ stuck: { ...STUCK, waiting: reversed(STUCK.waiting) } }))).not.toBe(hash(stuck))
    expect(hash(input({ stuck: { ...STUCK, phase: 'boot' } }))).not.toBe(hash(stuck))
    expect(hash(input())).not.toBe(hash(stuck))
  })

  it('and identical inputs give identical bytes', () => {
    expect(projectWithBytes(input()).json).toBe(projectWithBytes(input()).json)
  })
})

describe('the projection of a real run', () => {
  it('holds every request, the log, the statuses and the header of a three-turn run', async () => {
    const scenario = await loadScenario('scenarios/multi-turn-invariant.yml')
    const { projection } = await runInterleaving(scenario, referenceTarget, ['tool-zulu', 'tool-alpha', 'tool-mike'])
    expect(projection.outcome).toBe('completed')
    expect(headerToolNames(projection)).toEqual(['alpha', 'mike', 'zulu'])
    // One request per turn, in order: each carries the history so far (1, 3, 5 messages) and the header's tools.
    expect(projection.requests.map(request => (request as { messages: unknown[] }).messages.length)).toEqual([1, 3, 5])
    for (const request of projection.requests) {
      expect(json((request as { tools: unknown }).tools)).toBe(json((projection.header as { tools: unknown }).tools))
      expect(request).not.toHaveProperty('signal')
    }
    const types = projection.events.map(event => (event as { type: string }).type)
    expect(types.filter(type => type === 'turn/start')).toHaveLength(3)
    expect(types.filter(type => type === 'request/header')).toHaveLength(1)
    expect(types.indexOf('turn/start')).toBeLessThan(types.indexOf('request/header'))
    for (const event of projection.events) expect(event).not.toHaveProperty('time')
    expect(projection.live).toEqual([1, 2, 3].flatMap(() => [{ event: 'agent/status', status: 'running' }, { event: 'agent/status', status: 'idle' }]))
    expect(projection.errors).toEqual({ load: [], turn: [] })
    expect(projection.stuck).toBeNull()
  })

  it('holds each failed turn as an agent/error between its statuses, and no request', async () => {
    const scenario = await loadScenario('scenarios/unknown-tool-order-name.yml')
    const { projection } = await runInterleaving(scenario, referenceTarget, ['tool-beta', 'tool-alpha'])
    const message = 'toolOrder lists unregistered tool "ghost"; known tools: alpha, beta'
    expect(projection).toMatchObject({ outcome: 'turn-error', header: null, requests: [], errors: { load: [], turn: [message, message] } })
    expect(projection.live).toEqual([1, 2].flatMap(turn => [
      { event: 'agent/status', status: 'running' },
      { event: 'agent/error', turn, step: 0, message },
      { event: 'agent/status', status: 'idle' },
    ]))
  })

  it('holds the load error of a shape error, and the stuck state of a plugin that never applies', async () => {
    const shape = await runInterleaving(await loadScenario('scenarios/tool-order-empty.yml'), referenceTarget, ['tool-shell', 'tool-todo'])
    expect(shape.projection.outcome).toBe('load-error')
    expect(shape.projection.errors.load).toEqual([
      'toolOrder must contain the "<unlisted-tools>" rest entry (where unlisted tools are inserted)',
      'service "systemPrompt" is not available after boot',
    ])
    const hung = await runInterleaving(await loadScenario('scenarios/faults/apply-hangs.yml'), referenceTarget, ['tool-alpha', 'tool-hangs'])
    expect(hung.projection.outcome).toBe('stuck')
    expect(hung.projection.stuck).toMatchObject({ reason: 'no-progress', waiting: expect.arrayContaining(['tool-hangs']) })
  })
})

describe('serialised part by part', () => {
  /** A projection input whose text goes beyond Latin-1 (as real tool descriptions do: dashes, quotes, emoji). */
  function wide(): ProjectionInput {
    const described = { ...tool('gamma'), description: 'reads a file — “quoted”, naïve, 🙂, and a lone \ud800 surrogate' }
    return input({ observation: observation({ header: { ...(observation().header as object), tools: [described, tool('alpha')] } }), inactive: [{ id: 'tool-x', reason: 'waiting', waiting: ['tools'] }] })
  }

  it('gives the bytes of one JSON.stringify of the projection, whose hash it is, and parses each part back to the same values', () => {
    const inputs = [input(), wide(), input({ stuck: STUCK, observation: undefined }), input({ observation: observation({ header: undefined }) })]
    for (const value of inputs) {
      const parts = projectWithBytes(value)
      const parsed = JSON.parse(parts.json)
      expect(parts.json).toBe(JSON.stringify(parsed))
      expect(JSON.stringify(parts.projection)).toBe(parts.json)
      expect(parts.hash).toBe(hashOf(parts.json))
      expect(parts.projection).toEqual(parsed)
      expect(Object.keys(parts.projection)).toEqual(Object.keys(parsed))
    }
  })

  it('hashes the bytes of a real interleaving', async () => {
    const scenario = await loadScenario('scenarios/multi-turn-invariant.yml')
    const result = await runInterleaving(scenario, referenceTarget, ['tool-zulu', 'tool-alpha', 'tool-mike'])
    expect(result.hash).toBe(hashOf(result.json))
    expect(result.projection).toEqual(JSON.parse(result.json))
  })
})
