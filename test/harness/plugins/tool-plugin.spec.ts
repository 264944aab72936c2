import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { batchLabel, toolPlugin, type PluginServices } from '../../../harness/plugins/tool-plugin.ts'
import type { ToolSpec, ToolsPluginSpec } from '../../../harness/scenario/scenario.ts'
import { opLabel } from '../../../harness/space/space.ts'
import { ToolRegistry } from '../../../src/tools/registry.ts'
import { mountSystemPrompt } from '../../support/system-prompt.ts'
import { registered, registryRoot } from '../../support/registry-root.ts'

const spec = (name: string): ToolSpec => ({ name, description: `${name} tool`, parameters: { type: 'object', properties: {} } })

function plugin(id: string, batches: string[][], extra: Partial<ToolsPluginSpec> = {}): ToolsPluginSpec {
  return { kind: 'tools', id, inject: [], batches: batches.map(batch => batch.map(spec)), ...extra }
}

/** A host whose gates open only when the test releases them, and that reads who registered from the registry's owners. */
async function gatedHost() {
  const { root, mounted } = await registryRoot()
  const waiting = new Map<string, () => void>()
  const host: PluginServices = {
    mounted,
    gate: label => new Promise(resolve => { waiting.set(label, resolve) }),
    hasRegistered: (ctx: Context, id: string) => ctx.tools.records().some(record => record.owner === id),
  }
  const release = async (label: string) => {
    const open = waiting.get(label)
    if (!open) throw new Error(`nothing waits at ${label}; waiting: ${[...waiting.keys()].join(', ')}`)
    waiting.delete(label)
    open()
    await new Promise(resolve => setTimeout(resolve, 0))
  }
  return { root, host, waiting, release }
}

describe('a batch label', () => {
  it("is the space's label of the gap before that batch", () => {
    for (const index of [1, 2, 9]) expect(batchLabel('p', index)).toBe(opLabel('p', index + 1))
    expect(batchLabel('p', 1)).toBe('p#2')
  })
})

describe('a synthetic tool plugin on real cordis', () => {
  it('registers its first batch when applied, and each further one only once the scheduler releases its gap', async () => {
    const { root, host, waiting, release } = await gatedHost()
    const fiber = root.plugin(toolPlugin(plugin('p', [['a'], ['b', 'c'], ['d']]), host))
    await new Promise(resolve => setTimeout(resolve, 0))
    expect(registered(root)).toEqual(['a'])
    expect([...waiting.keys()]).toEqual(['p#2'])
    await release('p#2')
    expect(registered(root)).toEqual(['a', 'b', 'c'])
    await release('p#3')
    expect(registered(root)).toEqual(['a', 'b', 'c', 'd'])
    expect(waiting.size).toBe(0)
    await fiber
  })

  it('lets batches of two plugins interleave as their gaps are released', async () => {
    const { root, host, release } = await gatedHost()
    root.plugin(toolPlugin(plugin('p', [['p1'], ['p2']]), host))
    root.plugin(toolPlugin(plugin('q', [['q1'], ['q2']]), host))
    await new Promise(resolve => setTimeout(resolve, 0))
    await release('q#2')
    await release('p#2')
    expect(registered(root)).toEqual(['p1', 'q1', 'q2', 'p2'])
  })

  it('checks its `when:` guard at every batch', async () => {
    const { root, host, release } = await gatedHost()
    root.plugin(toolPlugin(plugin('late', [['l1'], ['l2']], { when: { after: ['first'], before: [] } }), host))
    root.plugin(toolPlugin(plugin('early', [['e1'], ['e2']], { when: { after: [], before: ['first'] } }), host))
    await new Promise(resolve => setTimeout(resolve, 0))
    expect(registered(root)).toEqual(['e1'])
    await root.plugin(toolPlugin(plugin('first', [['f']]), host))
    await release('late#2')
    await release('early#2')
    expect(registered(root)).toEqual(['e1', 'f', 'l2'])
  })

  it('registers its own copy of each tool, with its weight, once the tool service it injects is there', async () => {
    const { host } = await gatedHost()
    const root = await mountSystemPrompt()
    const declared = plugin('w', [['a']], { weight: 3 })
    const fiber = root.plugin(toolPlugin(declared, host))
    await new Promise(resolve => setTimeout(resolve, 0))
    expect(root.get('tools')).toBeUndefined()
    await root.plugin(ToolRegistry)
    await fiber
    const [record] = root.tools.records()
    expect(record).toMatchObject({ weight: 3, owner: 'w', definition: { name: 'a', description: 'a tool' } })
    expect(record!.definition.parameters).toEqual(declared.batches[0]![0]!.parameters)
    expect(record!.definition.parameters).not.toBe(declared.batches[0]![0]!.parameters)
  })
})
