import { describe, expect, it } from 'vitest'
import { editToolList, editTools, listenerPlugin } from '../../../harness/plugins/listener-plugin.ts'
import type { ListenerPluginSpec, ListenerSpec } from '../../../harness/scenario/scenario.ts'
import { names, tool } from '../../support/system-prompt.ts'
import { registryRoot } from '../../support/registry-root.ts'

const NONE: ListenerSpec = { prepend: [], append: [], reverse: false, remove: [] }
const named = (name: string) => ({ name })
const listNames = (tools: readonly { name: string }[]) => tools.map(entry => entry.name)

function listener(id: string, edits: Partial<ListenerSpec>): ListenerPluginSpec {
  return { kind: 'listener', id, inject: [], listener: { ...NONE, ...edits } }
}

describe('editing a tool list', () => {
  const tools = ['a', 'b', 'c'].map(named)

  it('removes, then prepends, then appends, then reverses', () => {
    expect(listNames(editToolList(tools, { ...NONE, remove: ['b'] }, named))).toEqual(['a', 'c'])
    expect(listNames(editToolList(tools, { ...NONE, remove: ['b'], prepend: ['x', 'y'], append: ['z'] }, named))).toEqual(['x', 'y', 'a', 'c', 'z'])
    expect(listNames(editToolList(tools, { remove: ['b'], prepend: ['x'], append: ['z'], reverse: true }, named))).toEqual(['z', 'c', 'a', 'x'])
  })

  it('removes only tools already listed: a prepended or appended tool of a removed name stays', () => {
    expect(listNames(editToolList(tools, { ...NONE, remove: ['a'], prepend: ['a'], append: ['a'] }, named))).toEqual(['a', 'b', 'c', 'a'])
  })

  it('builds added tools with `make`, and returns a new list, leaving the given one alone', () => {
    const edited = editToolList(tools, { ...NONE, append: ['z'], reverse: true }, name => ({ name, added: true }))
    expect(edited[0]).toEqual({ name: 'z', added: true })
    expect(edited.slice(1)).toEqual([tools[2], tools[1], tools[0]])
    expect(listNames(tools)).toEqual(['a', 'b', 'c'])
  })

  it("gives an added tool in an assembly the model-facing schema `<name> tool` with no parameters", () => {
    const assembly = { tools: [tool('a')] }
    editTools(assembly, { ...NONE, prepend: ['x'] })
    expect(assembly.tools).toEqual([tool('x'), tool('a')])
  })
})

describe('a listener plugin on real cordis', () => {
  async function assembled(...specs: ListenerPluginSpec[]): Promise<string[]> {
    const { root } = await registryRoot()
    await root.plugin({ name: 'tools', inject: ['tools'], apply: ctx => { for (const name of ['b', 'a']) ctx.tools.register({ ...tool(name), execute: () => 'ok' }) } })
    for (const spec of specs) await root.plugin(listenerPlugin(spec))
    return names((await root.systemPrompt.assemble()).tools)
  }

  it('edits the canonical tool list of every assembly', async () => {
    expect(await assembled()).toEqual(['a', 'b'])
    expect(await assembled(listener('edit', { remove: ['a'], prepend: ['x'], append: ['y'] }))).toEqual(['x', 'b', 'y'])
  })

  it('runs in registration order, so two non-commuting listeners give the order their plugins registered in', async () => {
    const append = listener('append', { append: ['z'] })
    const reverse = listener('reverse', { reverse: true })
    expect(await assembled(append, reverse)).toEqual(['z', 'b', 'a'])
    expect(await assembled(reverse, append)).toEqual(['b', 'a', 'z'])
  })

  it('is named after its entry and injects the system prompt service', async () => {
    const plugin = listenerPlugin(listener('early', {}))
    expect(plugin.name).toBe('early')
    expect(plugin.inject).toEqual(['systemPrompt'])
  })
})
