import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { Agent } from '../../../src/agent/agent.ts'
import { AgentLoop } from '../../../src/agent/loop.ts'
import { isAgentLoopRequest } from '../../../src/agent/request-marker.ts'
import { MockAdapter } from '../../../src/llm/mock-adapter.ts'
import type { GenerateOptions } from '../../../src/llm/contract.ts'
import type { SessionEvent, SessionEventDataMap, SessionEventType } from '../../../src/session/events.ts'
import { foldRequestHeader } from '../../../src/session/header.ts'
import { Session } from '../../../src/session/session.ts'
import { TOOL_ORDER_REST } from '../../../src/system-prompt/tool-order.ts'
import { boot, names, recordLive, registerTools, tool, turn, types } from '../../support/reference-boot.ts'

const GHOST_MESSAGE = 'toolOrder lists unregistered tool "ghost"; known tools: alpha'

/** Boots the reference with `registered` tools (in that registration order) and one agent `a1`. */
async function withTools(registered: string[], options: Parameters<typeof boot>[0] = {}) {
  const booted = await boot({ config: { persona: 'You help.' }, fallback: MockAdapter.textResponse('ok'), ...options })
  await registerTools(booted.root, registered.map(name => tool(name)))
  const agent = booted.root.agentLoop.create({ id: 'a1' })
  return { ...booted, agent }
}

function headerEvents(events: readonly SessionEvent[]): SessionEvent<'request/header'>[] {
  return events.filter((event): event is SessionEvent<'request/header'> => event.type === 'request/header')
}

/** Every event with its turn number (and message ids) masked, for comparing turns. */
function maskTurns(events: readonly SessionEvent[]): string[] {
  return events.map(event => JSON.stringify({ type: event.type, data: event.data })
    .replace(/"turn":\d+/g, '"turn":"#"')
    .replace(/"id":"[^"]*"/g, '"id":"#"'))
}

/** Replays a log prefix into a fresh session. */
function replay(events: readonly SessionEvent[]): Session {
  const session = new Session('replay')
  for (const event of events) {
    const type = event.type as SessionEventType
    session.append(type, event.data as SessionEventDataMap[typeof type], event.sourceEventSeqs ? { sourceEventSeqs: event.sourceEventSeqs } : {})
  }
  return session
}

describe('8.4 loop-level tool order', () => {
  it('8.4/21 logs the canonical order for scrambled registration', async () => {
    const { root, adapter, agent } = await withTools(['zulu', 'alpha', 'mike'])
    const atStream: GenerateOptions[] = []
    root.on('llm/stream', (request, next) => { atStream.push(request); return next() })
    await turn(agent, 'hello')
    expect(names(agent.session.requestHeader()?.tools)).toEqual(['alpha', 'mike', 'zulu'])
    expect(adapter.requests).toHaveLength(1)
    const [request] = adapter.requests
    expect(names(request!.tools)).toEqual(['alpha', 'mike', 'zulu'])
    expect(Object.isFrozen(request)).toBe(true)
    expect(Object.isFrozen(request!.tools)).toBe(true)
    expect(request!.sessionId).toBe(agent.session.id)
    expect(atStream[0]).toBe(request)
    expect(isAgentLoopRequest(request)).toBe(true)
  })

  it('8.4/22 folds the identical header order for opposite registration orders', async () => {
    const forward = await withTools(['alpha', 'mike', 'zulu'])
    const backward = await withTools(['zulu', 'mike', 'alpha'])
    await turn(forward.agent, 'hello')
    await turn(backward.agent, 'hello')
    expect(names(forward.agent.session.requestHeader()?.tools)).toEqual(['alpha', 'mike', 'zulu'])
    expect(JSON.stringify(backward.agent.session.requestHeader())).toBe(JSON.stringify(forward.agent.session.requestHeader()))
    expect(JSON.stringify(backward.agent.session.events.map(({ time: _time, ...rest }) => rest)))
      .toBe(JSON.stringify(forward.agent.session.events.map(({ time: _time, ...rest }) => rest)))
  })

  it('8.4/23 carries a configured toolOrder into the header and the frozen request', async () => {
    const { adapter, agent } = await withTools(['alpha', 'zulu', 'mike'], { config: { toolOrder: ['zulu', TOOL_ORDER_REST] } })
    await turn(agent, 'hello')
    expect(names(agent.session.requestHeader()?.tools)).toEqual(['zulu', 'alpha', 'mike'])
    expect(names(adapter.requests[0]?.tools)).toEqual(['zulu', 'alpha', 'mike'])
    expect(Object.isFrozen(adapter.requests[0])).toBe(true)
  })

  it('8.4/24 fails the turn at assembly for an unregistered toolOrder name', async () => {
    const { root, adapter, agent } = await withTools(['alpha'], { config: { toolOrder: ['ghost', TOOL_ORDER_REST] } })
    const live = recordLive(root)
    await turn(agent, 'hello')
    const { events } = agent.session
    expect(adapter.requests).toHaveLength(0)
    expect(agent.session.requestHeader()).toBeUndefined()
    expect(types(events)).toEqual(['agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'turn/end'])
    expect(events.find(event => event.type === 'turn/end')?.data).toEqual({
      turn: 1,
      reason: { kind: 'error', error: { message: GHOST_MESSAGE, code: 'UNKNOWN' } },
    })
    expect(live.errors.map(({ error }) => (error as Error).message)).toEqual([GHOST_MESSAGE])
    expect(live.errors[0]).toMatchObject({ turn: 1, step: 0, logLength: 3 })
    expect(live.statuses).toEqual(['running', 'idle'])
    expect(agent.status).toBe('idle')
    expect(events.some(event => event.type === 'user/message')).toBe(false)
  })
})

describe('§2 event log of a turn', () => {
  it('2.2 logs the canonical order of a text-only first turn, synchronously up to the claim', async () => {
    const { root, agent } = await withTools(['alpha'])
    const live = recordLive(root)
    agent.followup('hello')
    expect(types(agent.session.events)).toEqual(['agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced'])
    expect(live.statuses).toEqual(['running'])
    expect(agent.session.events[2]!.data).toEqual({ target: 'next-turn', start: 0, removedCount: 1, inserted: [] })
    await agent.idle()
    expect(types(agent.session.events)).toEqual([
      'agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'step/start', 'user/message',
      'request/header', 'request/context',
      ...Array<string>(MockAdapter.textResponse('ok').length).fill('assistant/chunk'),
      'assistant/message', 'step/end', 'turn/end',
    ])
    expect(live.statuses).toEqual(['running', 'idle'])
    expect(headerEvents(agent.session.events)[0]!.data.reason).toBe('initial')
  })

  it('2.3 logs no header, context or user message in a tool-calling turn\'s second step', async () => {
    const script = [MockAdapter.toolCallResponse([{ id: 'c1', name: 'alpha', arguments: '{"q":1}' }]), MockAdapter.textResponse('done')]
    const booted = await boot({ script })
    await registerTools(booted.root, [tool('alpha', args => `alpha got ${JSON.stringify(args)}`)])
    const agent = booted.root.agentLoop.create({ id: 'a1' })
    await turn(agent, 'use alpha')
    const { events } = agent.session
    const secondStep = events.slice(events.findIndex(event => event.type === 'step/start' && event.data.step === 2))
    expect(types(secondStep).filter(type => type !== 'assistant/chunk')).toEqual(['step/start', 'assistant/message', 'step/end', 'turn/end'])
    const result = events.find((event): event is SessionEvent<'tool/result'> => event.type === 'tool/result')!
    const call = events.find(event => event.type === 'tool/call')!
    expect(result.sourceEventSeqs).toEqual([call.seq])
    expect(result.data.message.content[0]).toEqual({
      type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'alpha got {"q":1}' }],
    })
    expect(booted.adapter.requests[1]!.messages.map(message => message.role)).toEqual(['user', 'assistant', 'user'])
  })
})

describe('8.5 header changes and reconstruction', () => {
  it('8.5/25 logs a full change snapshot for a real prompt change, and nothing for an unchanged re-render', async () => {
    const { root, agent } = await withTools(['alpha', 'mike'])
    await turn(agent, 'one')
    root.systemPrompt.section({ name: 'extra', order: 10, text: 'Be brief.' })
    await turn(agent, 'two')
    await turn(agent, 'three')
    const headers = headerEvents(agent.session.events)
    expect(headers.map(event => event.data.reason)).toEqual(['initial', 'change'])
    expect(headers[1]!.data.header.system).toContain('Be brief.')
    expect(names(headers[1]!.data.header.tools)).toEqual(['alpha', 'mike'])
    expect(headers[1]!.data.header.config).toEqual({ provider: 'mock', model: 'mock-model' })
  })

  it('a listener reversing the tools from turn 2 on logs one change snapshot, and nothing on the identical turn 3', async () => {
    const { root, adapter, agent } = await withTools(['alpha', 'mike', 'zulu'])
    await turn(agent, 'one')
    root.on('system-prompt/assemble', async (_assembly, _context, next) => {
      const result = await next()
      return { ...result, tools: [...result.tools].reverse() }
    })
    await turn(agent, 'two')
    await turn(agent, 'three')
    const headers = headerEvents(agent.session.events)
    expect(headers.map(event => event.data.reason)).toEqual(['initial', 'change'])
    expect(names(headers[1]!.data.header.tools)).toEqual(['zulu', 'mike', 'alpha'])
    expect(adapter.requests.map(request => names(request.tools))).toEqual([
      ['alpha', 'mike', 'zulu'], ['zulu', 'mike', 'alpha'], ['zulu', 'mike', 'alpha'],
    ])
  })

  it('8.5/26 THEOREM: every request equals the derivation and header fold of its log prefix', async () => {
    const script = [
      MockAdapter.toolCallResponse([{ id: 'c1', name: 'alpha', arguments: '{}' }, { id: 'c2', name: 'zulu', arguments: '' }]),
      MockAdapter.textResponse('first done'),
      MockAdapter.toolCallResponse([{ id: 'c3', name: 'alpha', arguments: '{"again":true}' }]),
      MockAdapter.textResponse('second done'),
    ]
    const booted = await boot({ script, config: { persona: 'Theorem.' }, invariant: true })
    await registerTools(booted.root, [tool('zulu', () => 'z'), tool('alpha', () => 'a')])
    const agent = booted.root.agentLoop.create({ id: 'a1', maxTokens: 100 })
    await turn(agent, 'first')
    booted.root.systemPrompt.section({ name: 'late', order: 5, text: 'Late section.' })
    await turn(agent, 'second')

    const { events } = agent.session
    const firstChunks = events.filter((event, index) => event.type === 'assistant/chunk' && events[index - 1]?.type !== 'assistant/chunk')
    expect(booted.adapter.requests).toHaveLength(4)
    expect(firstChunks).toHaveLength(4)
    booted.adapter.requests.forEach((request, index) => {
      const prefix = events.slice(0, firstChunks[index]!.seq)
      const fresh = replay(prefix)
      expect(JSON.stringify(request.messages)).toBe(JSON.stringify(fresh.deriveMessages()))
      const header = foldRequestHeader(prefix)!
      expect(request.model).toBe(header.config.model)
      expect(request.reasoningEffort).toBe(header.config.reasoningEffort)
      expect(request.temperature).toBe(header.config.temperature)
      expect(request.maxTokens).toBe(100)
      expect(request.maxTokens).toBe(header.config.maxTokens)
      expect(JSON.stringify(request.stop)).toBe(JSON.stringify(header.config.stop))
      expect(request.system).toBe(header.system)
      expect(JSON.stringify(request.tools ?? [])).toBe(JSON.stringify(header.tools ?? []))
    })
    expect(headerEvents(events).map(event => event.data.reason)).toEqual(['initial', 'change'])
    expect(events.filter(event => event.type === 'turn/end').map(event => event.data)).toEqual([
      { turn: 1, reason: { kind: 'completed' } }, { turn: 2, reason: { kind: 'completed' } },
    ])
  })
})

describe('§5 failure behaviour', () => {
  it('two failed turns in a row log identical event sequences apart from turn numbers', async () => {
    const { root, agent } = await withTools(['alpha'], { config: { toolOrder: ['ghost', TOOL_ORDER_REST] } })
    const live = recordLive(root)
    await turn(agent, 'again')
    const firstTurn = agent.session.events.length
    await turn(agent, 'again')
    const { events } = agent.session
    expect(types(events)).toEqual([
      'agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'turn/end',
      'agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'turn/end',
    ])
    expect(maskTurns(events.slice(firstTurn))).toEqual(maskTurns(events.slice(0, firstTurn)))
    expect(events.filter(event => event.type === 'turn/start').map(event => event.data)).toEqual([{ turn: 1 }, { turn: 2 }])
    expect(live.errors.map(({ turn: number, error }) => [number, (error as Error).message])).toEqual([[1, GHOST_MESSAGE], [2, GHOST_MESSAGE]])
    expect(live.statuses).toEqual(['running', 'idle', 'running', 'idle'])
  })

  it('keeps serving once the configuration is satisfied (the process stays up)', async () => {
    const { root, adapter, agent } = await withTools(['alpha'], { config: { toolOrder: ['ghost', TOOL_ORDER_REST] } })
    await turn(agent, 'fails')
    await registerTools(root, [tool('ghost')])
    await turn(agent, 'works')
    const ends = agent.session.events.filter(event => event.type === 'turn/end').map(event => event.data.reason.kind)
    expect(ends).toEqual(['error', 'completed'])
    expect(names(adapter.requests[0]?.tools)).toEqual(['ghost', 'alpha'])
  })

  it('tolerates NO_ADAPTER at prepareCall: the header is logged as proposed and the turn ends with the adapter failure', async () => {
    const booted = await boot()
    await registerTools(booted.root, [tool('alpha')])
    const agent = booted.root.agentLoop.create({ id: 'a1', provider: 'nowhere' })
    await turn(agent, 'hello')
    expect(agent.session.requestHeader()?.config).toEqual({ provider: 'nowhere', model: 'mock-model' })
    expect(agent.session.events.at(-1)!.data).toEqual({
      turn: 1,
      reason: { kind: 'error', error: { message: 'no adapter registered for provider "nowhere"', code: 'NO_ADAPTER' } },
    })
  })

  it('contains throwing live listeners', async () => {
    const { root, agent } = await withTools(['alpha'])
    root.on('agent/status', () => { throw new Error('status listener boom') })
    root.on('agent/inbox/claimed', () => { throw new Error('claim listener boom') })
    await turn(agent, 'hello')
    expect(agent.session.events.at(-1)!.data).toEqual({ turn: 1, reason: { kind: 'completed' } })
  })
})

describe('reconstruction invariant', () => {
  /** Installs, after the invariant, a prepended llm/stream listener (so it runs first) that logs a tampered header. */
  function tamperWithHeader(root: Context): void {
    root.on('llm/stream', (request, next) => {
      const session = root.sessions.get(request.sessionId)!
      const folded = session.requestHeader()!
      session.append('request/header', { header: { ...folded, tools: [...folded.tools ?? []].reverse() }, reason: 'change' })
      return next()
    }, { prepend: true })
  }

  it('passes for the canonical loop', async () => {
    const { root, adapter, agent } = await withTools(['zulu', 'alpha'], { invariant: true })
    const errors = recordLive(root).errors
    await turn(agent, 'one')
    await turn(agent, 'two')
    expect(errors).toEqual([])
    expect(adapter.requests).toHaveLength(2)
    expect(agent.session.events.filter(event => event.type === 'turn/end').map(event => event.data.reason.kind)).toEqual(['completed', 'completed'])
  })

  it('fails the turn with the invariant message when a request\'s tools differ from the fold', async () => {
    const { root, adapter, agent } = await withTools(['zulu', 'alpha'], { invariant: true })
    const errors = recordLive(root).errors
    tamperWithHeader(root)
    await turn(agent, 'one')
    const message = 'invariant violated by "agent-loop": request field "tools" differs from the folded request header'
    expect(adapter.requests).toHaveLength(0)
    expect(errors.map(({ error }) => (error as Error).message)).toEqual([message])
    expect(errors[0]).toMatchObject({ step: 1 })
    const tail = agent.session.events.slice(-2)
    expect(types(tail)).toEqual(['step/end', 'turn/end'])
    expect(tail[1]!.data).toEqual({ turn: 1, reason: { kind: 'error', error: { message, code: 'UNKNOWN' } } })
  })

  it('does not run without the invariant plugin', async () => {
    const { root, adapter, agent } = await withTools(['zulu', 'alpha'])
    tamperWithHeader(root)
    await turn(agent, 'one')
    expect(adapter.requests).toHaveLength(1)
    expect(agent.session.events.at(-1)!.data).toEqual({ turn: 1, reason: { kind: 'completed' } })
  })

  it('skips requests the loop did not build', async () => {
    const { root, adapter } = await withTools(['alpha'], { invariant: true })
    const chunks = []
    const unmarked = Object.freeze({ provider: 'mock', model: 'm', messages: [], sessionId: 'nobody', signal: new AbortController().signal })
    for await (const chunk of root.llm.stream(unmarked)) chunks.push(chunk)
    expect(adapter.requests[0]).toBe(unmarked)
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: { kind: 'stop' } })
  })
})

describe('§3 extension points and limits', () => {
  it('ends a cancelled turn aborted, without agent/error', async () => {
    const { root, adapter, agent } = await withTools(['alpha'], { script: [MockAdapter.hang()] })
    const live = recordLive(root)
    root.on('llm/stream', (_request, next) => {
      agent.cancel({ kind: 'user-cancel' })
      return next()
    })
    await turn(agent, 'hello')
    expect(adapter.requests).toHaveLength(1)
    expect(live.errors).toEqual([])
    expect(types(agent.session.events.slice(-2))).toEqual(['step/end', 'turn/end'])
    expect(agent.session.events.at(-1)!.data).toEqual({ turn: 1, reason: { kind: 'aborted', reason: { kind: 'user-cancel' } } })
    expect(agent.status).toBe('idle')
  })

  it('blocks the turn when agent/pre-step rejects the step', async () => {
    const { root, adapter, agent } = await withTools(['alpha'])
    root.on('agent/pre-step', async () => ({ kind: 'reject' as const }))
    await turn(agent, 'hello')
    expect(adapter.requests).toHaveLength(0)
    expect(types(agent.session.events)).toEqual(['agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'turn/end'])
    expect(agent.session.events.at(-1)!.data).toEqual({ turn: 1, reason: { kind: 'blocked' } })
  })

  it('lets agent/request replace the call config, which the header and request carry', async () => {
    const { root, adapter, agent } = await withTools(['alpha'])
    root.on('agent/request', async (_proposal, next) => ({ ...await next(), temperature: 0.25, stop: ['END'] }))
    await turn(agent, 'hello')
    expect(agent.session.requestHeader()?.config).toEqual({ provider: 'mock', model: 'mock-model', temperature: 0.25, stop: ['END'] })
    expect(adapter.requests[0]).toMatchObject({ temperature: 0.25, stop: ['END'] })
    expect(Object.keys(adapter.requests[0]!)).toEqual(['provider', 'model', 'temperature', 'stop', 'messages', 'system', 'tools', 'sessionId', 'signal'])
  })

  it('hands the agent itself, typed as the Agent, to the agent/pre-step and agent/request waterfalls', async () => {
    const { root, agent } = await withTools(['alpha'])
    const seen: Agent[] = []
    root.on('agent/pre-step', (proposal, next) => {
      expectTypeOf(proposal.agent).toEqualTypeOf<Agent>()
      seen.push(proposal.agent)
      return next()
    })
    root.on('agent/request', (proposal, next) => {
      expectTypeOf(proposal.agent).toEqualTypeOf<Agent>()
      seen.push(proposal.agent)
      return next()
    })
    root.on('agent/status', payload => expectTypeOf(payload.agent).toEqualTypeOf<Agent>())
    await turn(agent, 'hello')
    expect(seen).toHaveLength(2)
    expect(seen.every(entry => entry === agent)).toBe(true)
  })

  it('logs a runtime-context snapshot only when the rendered contexts change', async () => {
    const { root, adapter, agent } = await withTools(['alpha'])
    const cwd = root.systemPrompt.context({ name: 'cwd', order: 0, text: 'cwd: /a' })
    await turn(agent, 'one')
    await turn(agent, 'two')
    await cwd()
    await turn(agent, 'three')
    const texts = agent.session.events
      .filter((event): event is SessionEvent<'user/message'> => event.type === 'user/message')
      .map(event => [event.data.source.kind, (event.data.content[0] as { text: string }).text])
    expect(texts).toEqual([
      ['user', 'one'], ['plugin', 'cwd: /a'], ['user', 'two'], ['user', 'three'],
      ['plugin', 'Runtime context: none. Earlier runtime-context snapshots are void.'],
    ])
    expect(adapter.requests[1]!.messages).toHaveLength(4)
  })

  it('fails a turn that reaches maxSteps', async () => {
    const booted = await boot({ fallback: MockAdapter.toolCallResponse([{ id: 'c', name: 'alpha', arguments: '{}' }]) })
    const live = recordLive(booted.root)
    await registerTools(booted.root, [tool('alpha', () => 'again')])
    const fiber = booted.root.isolate('agentLoop').plugin(AgentLoop, { maxSteps: 2 })
    await fiber
    const agent = fiber.ctx.agentLoop.create({ id: 'limited' })
    await turn(agent, 'loop forever')
    expect(booted.adapter.requests).toHaveLength(2)
    expect(live.errors.map(({ step, error }) => [step, (error as Error).message])).toEqual([[2, 'agent "limited" reached maxSteps (2) in turn 1']])
  })
})
