import { Context, type Fiber } from '@deepseek-ai/cordis'
import { homedir, tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { dshTarget } from '../../../harness/targets/dsh/index.ts'
import { ensurePromiseWithResolvers } from '../../../harness/targets/dsh/node20.ts'
import { loadPackages } from '../../../harness/targets/dsh/packages.ts'
import { ownSystem } from '../../../harness/system/system.ts'
import { dshService } from '../../../harness/targets/dsh/services.ts'
import type { Mounted, MountOptions, Observation } from '../../../harness/targets/target.ts'
import { createDeterministicEnvironment } from '../../../src/runtime/environment.ts'

const REST = '<unlisted-tools>'

/** loadrace's own system (no project copies here) and its pinned dsh packages. */
const system = await ownSystem()
const dsh = await loadPackages(system)

interface Harness {
  root: Context
  mounted: Mounted
  /** Messages cordis logged at error level since mounting. */
  errors: string[]
}

function mountDsh(config: MountOptions['config'] = {}, invariant = false): Harness {
  const root = new Context()
  const errors: string[] = []
  root.logger.exporter({
    export: (message) => {
      if (message.type !== 'error') return
      errors.push(message.args.map(arg => arg instanceof Error ? arg.message : String(arg)).join(' '))
    },
  })
  const mounted = dshTarget.mount(root, {
    system,
    workdir: { root: tmpdir(), cwd: process.cwd(), home: homedir() },
    app: 'none',
    config: { persona: 'You are a test agent.', ...config },
    base: {},
    variant: 'canonical',
    invariant,
    services: 'root',
    environment: createDeterministicEnvironment(),
  })
  return { root, mounted, errors }
}

function macrotask(): Promise<void> {
  return new Promise(resolve => setImmediate(resolve))
}

/** Lets the unawaited service fibers settle (bounded: a composition that cannot boot just stays unbooted). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await macrotask()
}

async function registerTools(harness: Harness, names: readonly string[]): Promise<Fiber[]> {
  const fibers: Fiber[] = []
  for (const name of names) {
    const fiber = harness.root.plugin({
      name: `tool-${name}`,
      inject: [harness.mounted.toolService],
      apply(ctx: Context) {
        harness.mounted.registerTool(ctx, { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } }, {})
      },
    })
    await fiber
    fibers.push(fiber)
  }
  return fibers
}

async function observe(names: readonly string[], config: MountOptions['config'] = {}, turns = 1): Promise<Observation> {
  const harness = mountDsh(config)
  await settle()
  expect(harness.mounted.bootProblem()).toBeUndefined()
  await registerTools(harness, names)
  return harness.mounted.runTurns(turns)
}

function toolNames(value: unknown): string[] {
  const tools = (value as { tools?: { name: string }[] } | undefined)?.tools
  return (tools ?? []).map(tool => tool.name)
}

function eventTypes(observation: Observation): unknown[] {
  return observation.events.map(event => event.type)
}

function dataOf(observation: Observation, type: string): Record<string, unknown>[] {
  return observation.events.filter(event => event.type === type).map(event => event.data as Record<string, unknown>)
}

describe('dsh target: canonical tool order on the published packages', () => {
  for (const order of [['zulu', 'alpha', 'mike'], ['alpha', 'mike', 'zulu']]) {
    it(`registration order [${order.join(', ')}] gives alpha, mike, zulu in the header fold and the first request`, async () => {
      const observation = await observe(order)
      expect(toolNames(observation.header)).toEqual(['alpha', 'mike', 'zulu'])
      expect(observation.requests).toHaveLength(1)
      const request = observation.requests[0] as { tools: unknown, sessionId: unknown }
      expect(toolNames(request)).toEqual(['alpha', 'mike', 'zulu'])
      expect(Object.isFrozen(request)).toBe(true)
      expect(request.sessionId).toBe('id-1')
      expect(dataOf(observation, 'turn/end')).toEqual([{ turn: 1, reason: { kind: 'completed' } }])
      expect(observation.live).toEqual([
        { event: 'agent/status', status: 'running' },
        { event: 'agent/status', status: 'idle' },
      ])
    })
  }

  it('toolOrder [zulu, <unlisted-tools>] gives zulu, alpha, mike in the header and the request', async () => {
    const observation = await observe(['alpha', 'zulu', 'mike'], { toolOrder: ['zulu', REST] })
    expect(toolNames(observation.header)).toEqual(['zulu', 'alpha', 'mike'])
    expect(toolNames(observation.requests[0])).toEqual(['zulu', 'alpha', 'mike'])
    expect(Object.isFrozen(observation.requests[0])).toBe(true)
  })
})

describe('dsh target: an unregistered toolOrder name fails the turn', () => {
  const message = 'toolOrder lists unregistered tool "ghost"; known tools: alpha'

  it('fails before any step: no request, no header, an agent/error, and an error turn/end', async () => {
    const observation = await observe(['alpha'], { toolOrder: ['ghost', REST] })
    expect(observation.requests).toEqual([])
    expect(observation.header).toBeUndefined()
    expect(eventTypes(observation)).toEqual(['agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'turn/end'])
    expect(dataOf(observation, 'turn/end')).toEqual([{ turn: 1, reason: { kind: 'error', error: { message, code: 'UNKNOWN' } } }])
    expect(observation.live).toEqual([
      { event: 'agent/status', status: 'running' },
      { event: 'agent/error', turn: 1, step: 0, message },
      { event: 'agent/status', status: 'idle' },
    ])
  })

  it('fails every later turn the same way', async () => {
    const observation = await observe(['alpha'], { toolOrder: ['ghost', REST] }, 2)
    const turn = ['agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'turn/end']
    expect(eventTypes(observation)).toEqual([...turn, ...turn])
    expect(dataOf(observation, 'turn/end').map(data => data.reason)).toEqual([
      { kind: 'error', error: { message, code: 'UNKNOWN' } },
      { kind: 'error', error: { message, code: 'UNKNOWN' } },
    ])
    expect(observation.live.filter(record => record.event === 'agent/error')).toEqual([
      { event: 'agent/error', turn: 1, step: 0, message },
      { event: 'agent/error', turn: 2, step: 0, message },
    ])
    expect(observation.requests).toEqual([])
    expect(observation.header).toBeUndefined()
  })
})

describe('dsh target: a toolOrder shape error fails SystemPrompt at mount', () => {
  it('is logged by cordis (mount awaits nothing) and leaves the agent loop unavailable', async () => {
    const harness = mountDsh({ toolOrder: [] })
    await settle()
    expect(harness.errors.some(text => text.includes(`toolOrder must contain the "${REST}" rest entry`))).toBe(true)
    expect(harness.mounted.bootProblem()).toBe('service "systemPrompt" is not available after boot')
  })

  it('boots without error when toolOrder is absent', async () => {
    const harness = mountDsh()
    await settle()
    expect(harness.errors).toEqual([])
    expect(harness.mounted.bootProblem()).toBeUndefined()
  })
})

describe('dsh target: determinism', () => {
  it('two runs of the same schedule give byte-identical observations', async () => {
    const first = JSON.stringify(await observe(['zulu', 'alpha', 'mike'], {}, 2))
    const second = JSON.stringify(await observe(['zulu', 'alpha', 'mike'], {}, 2))
    expect(second).toBe(first)
    expect(first).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i)
  })

  it('takes ids and times from the environment, in the order a generator inside the system would have', async () => {
    const observation = await observe(['alpha'], {}, 2)
    const ids = [...dataOf(observation, 'user/message'), ...dataOf(observation, 'assistant/message').map(data => data.message as Record<string, unknown>)]
      .map(message => message.id)
    // id-1 is the session; then user 1, assistant 1, user 2, assistant 2.
    expect(ids).toEqual(['id-2', 'id-4', 'id-3', 'id-5'])
    expect(observation.events.map(event => event.time)).toEqual(observation.events.map((_, index) => index))
    const second = observation.requests[1] as { messages: { id: string }[] }
    expect(second.messages.map(message => message.id)).toEqual(['id-2', 'id-3', 'id-4'])
    expect(Object.isFrozen(second) && Object.isFrozen(second.messages)).toBe(true)
  })
})

describe('dsh target: tools and services', () => {
  it('registers a tool from the plugin context, so disposing the plugin unregisters it', async () => {
    const harness = mountDsh()
    await settle()
    const [fiber] = await registerTools(harness, ['alpha'])
    expect(harness.mounted.hasTool(harness.root, 'alpha')).toBe(true)
    expect(harness.mounted.hasTool(harness.root, 'mike')).toBe(false)
    await fiber!.dispose()
    expect(harness.mounted.hasTool(harness.root, 'alpha')).toBe(false)
  })

  it('mounts the agent loop reconstruction invariant on request', async () => {
    const dispatchForeign = async (harness: Harness): Promise<unknown[]> => {
      const llm = dshService(harness.root, 'llm')!
      const request = dsh.markAgentLoopRequest(dsh.deepFreeze({
        provider: 'mock', model: 'mock', messages: [], sessionId: 'no-such-session', signal: new AbortController().signal,
      }))
      const chunks: unknown[] = []
      for await (const chunk of llm.stream(request)) chunks.push(chunk)
      return chunks
    }
    const armed = mountDsh({}, true)
    await settle()
    expect(armed.mounted.bootProblem()).toBeUndefined()
    await expect(dispatchForeign(armed)).rejects.toThrow(/invariant violated by "@deepseek-ai\/dsh-agent-loop".*live session id/)
    await registerTools(armed, ['alpha'])
    const observation = await armed.mounted.runTurns(1)
    expect(dataOf(observation, 'turn/end')).toEqual([{ turn: 1, reason: { kind: 'completed' } }])

    const unarmed = mountDsh()
    await settle()
    await expect(dispatchForeign(unarmed)).resolves.toContainEqual({ type: 'finish', reason: { kind: 'stop' } })
  })

  it('supplies Promise.withResolvers only as a working polyfill', async () => {
    ensurePromiseWithResolvers()
    const withResolvers = Reflect.get(Promise, 'withResolvers') as () => { promise: Promise<unknown>, resolve: (value: unknown) => void }
    const { promise, resolve } = withResolvers.call(Promise)
    resolve(42)
    await expect(promise).resolves.toBe(42)
  })
})

describe('dsh target: unsupported features', () => {
  const base = { system, app: 'none', variant: 'canonical', invariant: false, services: 'root', base: {} }

  it('supports the canonical base composition, with or without the invariant', () => {
    expect(dshTarget.unsupported(base)).toBeUndefined()
    expect(dshTarget.unsupported({ ...base, invariant: true })).toBeUndefined()
  })

  it('names why a feature is missing from the published packages', () => {
    expect(dshTarget.unsupported({ ...base, variant: 'registration-order' })).toBe('the published packages implement only the canonical policy')
    expect(dshTarget.unsupported({ ...base, app: 'stdio-agent' }))
      .toBe('the RFC-era app chain (stdio-agent → agent-core → SystemPrompt) is not part of dsh: use app: none, or app: entries for an application of dsh')
    expect(dshTarget.unsupported({ ...base, services: 'entries' })).toMatch(/services: entries/)
  })
})
