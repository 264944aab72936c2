import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { mountReference, whenActive, type ReferenceOptions } from '../../src/composition.ts'
import { MockAdapter } from '../../src/llm/mock-adapter.ts'
import { createDeterministicEnvironment } from '../../src/runtime/environment.ts'
import { TOOL_ORDER_REST } from '../../src/system-prompt/tool-order.ts'
import { canonical } from '../../src/variants/canonical.ts'
import { loopOrderTools } from '../../src/variants/loop-order-tools.ts'
import { registrationOrder } from '../../src/variants/registration-order.ts'
import { streamNormalize } from '../../src/variants/stream-normalize.ts'
import type { Variant } from '../../src/variants/variant.ts'
import { names, registerTools, tool, turn } from '../support/reference-boot.ts'

/** Mounts the reference, waits for the agent loop, registers `registered` in order. */
async function mount(registered: string[], options: ReferenceOptions = {}) {
  const root = new Context()
  const adapter = new MockAdapter({ fallback: MockAdapter.textResponse('ok') })
  const handles = mountReference(root, { environment: createDeterministicEnvironment(), adapter, ...options })
  await Promise.all(Object.values(handles.fibers))
  await whenActive(root, 'agentLoop')
  await registerTools(root, registered.map(name => tool(name)))
  return { root, adapter, handles }
}

async function firstHeaderTools(registered: string[], options: ReferenceOptions = {}) {
  const { root, adapter } = await mount(registered, options)
  const agent = root.agentLoop.get('main') ?? root.agentLoop.create({ id: 'a1' })
  await turn(agent, 'hello')
  return { header: names(agent.session.requestHeader()?.tools), request: names(adapter.requests[0]?.tools), agent }
}

describe('mountReference', () => {
  it('mounts the §11 services directly by default, with a fresh mock adapter and no optional services', async () => {
    const root = new Context()
    const handles = mountReference(root)
    await Promise.all(Object.values(handles.fibers))
    expect(Object.keys(handles.fibers).sort()).toEqual(['adapter', 'agentLoop', 'llm', 'sessions', 'systemPrompt', 'tools', 'variables'])
    expect(handles.adapter.provider).toBe('mock')
    expect(root.llm.adapterFor('mock')).toBe(handles.adapter)
    expect(root.get('environment')).toBeUndefined()
    expect(root.get('variant')).toBeUndefined()
  })

  for (const app of ['agent-core', 'stdio-agent', 'acp-agent'] as const) {
    it(`forwards toolOrder through the ${app} chain to the logged header`, async () => {
      const { header, request } = await firstHeaderTools(['alpha', 'zulu', 'mike'], { app, config: { toolOrder: ['zulu', TOOL_ORDER_REST] } })
      expect(header).toEqual(['zulu', 'alpha', 'mike'])
      expect(request).toEqual(['zulu', 'alpha', 'mike'])
    })

    it(`keeps an omitted toolOrder absent through the ${app} chain (lexicographic)`, async () => {
      const { header } = await firstHeaderTools(['zulu', 'alpha'], { app, config: { persona: 'P' } })
      expect(header).toEqual(['alpha', 'zulu'])
    })
  }

  it('creates the stdio app\'s main agent', async () => {
    const { root } = await mount([], { app: 'stdio-agent' })
    expect(root.agentLoop.get('main')?.session.id).toBe('main')
  })

  it('provides the environment: ids and times come from it', async () => {
    const { agent } = await firstHeaderTools(['alpha'])
    expect(agent.id).toBe('a1')
    expect(agent.session.events.map(event => event.time)).toEqual(agent.session.events.map((_event, index) => index))
    expect(agent.session.events[0]!.data).toMatchObject({ inserted: [{ id: 'id-1' }] })
  })
})

describe('variant hooks', () => {
  it('provides the variant service: registration-order keeps registry order in the header', async () => {
    const { header } = await firstHeaderTools(['zulu', 'alpha', 'mike'], { variant: registrationOrder })
    expect(header).toEqual(['zulu', 'alpha', 'mike'])
  })

  it('applies loopOrder to the assembled tools before the header is built', async () => {
    const { header, request } = await firstHeaderTools(['zulu', 'alpha', 'mike'], { variant: loopOrderTools })
    expect(header).toEqual(['alpha', 'mike', 'zulu'])
    expect(request).toEqual(['alpha', 'mike', 'zulu'])
  })

  it('installs the variant\'s assemble listener', async () => {
    const reversing: Variant = { ...canonical, name: 'listener-random', assembleListener: assembly => ({ ...assembly, tools: [...assembly.tools].reverse() }) }
    const { header } = await firstHeaderTools(['alpha', 'mike', 'zulu'], { variant: reversing })
    expect(header).toEqual(['zulu', 'mike', 'alpha'])
  })

  it('stream-normalize: the re-sorted request diverges from the logged header and the invariant fails the turn', async () => {
    const { root, adapter } = await mount(['zulu', 'alpha'], { variant: streamNormalize, invariant: true })
    const agent = root.agentLoop.create({ id: 'a1' })
    await turn(agent, 'hello')
    expect(names(agent.session.requestHeader()?.tools)).toEqual(['zulu', 'alpha'])
    expect(adapter.requests).toHaveLength(0)
    expect(agent.session.events.at(-1)!.data).toEqual({
      turn: 1,
      reason: { kind: 'error', error: { message: 'invariant violated by "agent-loop": request field "tools" differs from the folded request header', code: 'UNKNOWN' } },
    })
  })
})
