import { Context, Service } from '@deepseek-ai/cordis'
import { Loader } from '@deepseek-ai/cordis-plugin-loader'
import { describe, expect, it } from 'vitest'
import { ToolRegistry } from '../../../src/tools/registry.ts'
import { TOOL_ORDER_REST } from '../../../src/system-prompt/tool-order.ts'
import { mountSystemPrompt, names, tool } from '../../support/system-prompt.ts'

async function mountRegistry(config: { toolOrder?: string[] } = {}): Promise<Context> {
  const ctx = await mountSystemPrompt(config)
  await ctx.plugin(ToolRegistry)
  return ctx
}

/** A plugin that injects `tools` (plus `extra`) and registers the named tools from its own context. */
function toolPlugin(name: string, tools: string[], extra: string[] = [], weight?: number) {
  return {
    name,
    inject: ['tools', ...extra],
    apply: (ctx: Context) => {
      for (const entry of tools) ctx.tools.register(tool(entry), { weight })
    },
  }
}

describe('ToolRegistry (REFERENCE-SPEC §4.6)', () => {
  it('keeps registration order in its records and provider, while the assembly orders canonically', async () => {
    const ctx = await mountRegistry()
    await ctx.plugin(toolPlugin('zulu-plugin', ['zulu']))
    await ctx.plugin(toolPlugin('alpha-plugin', ['alpha', 'mike']))
    expect(ctx.tools.records().map(record => [record.definition.name, record.seq, record.owner]))
      .toEqual([['zulu', 0, 'zulu-plugin'], ['alpha', 1, 'alpha-plugin'], ['mike', 2, 'alpha-plugin']])
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['alpha', 'mike', 'zulu'])
  })

  it('registers one provider whose known names are every registered name', async () => {
    const ctx = await mountRegistry({ toolOrder: ['ghost', TOOL_ORDER_REST] })
    await ctx.plugin(toolPlugin('p', ['zulu', 'alpha']))
    await expect(ctx.systemPrompt.assemble()).rejects.toThrow('toolOrder lists unregistered tool "ghost"; known tools: alpha, zulu')
  })

  it('removes a tool with its registering fiber, and on its disposer', async () => {
    const ctx = await mountRegistry()
    const fiber = ctx.plugin(toolPlugin('p', ['alpha']))
    await fiber
    const dispose = ctx.tools.register(tool('bravo'))
    expect(ctx.tools.get('alpha')?.name).toBe('alpha')
    await fiber.dispose()
    expect(ctx.tools.get('alpha')).toBeUndefined()
    await dispose()
    expect(ctx.tools.records()).toEqual([])
    expect((await ctx.systemPrompt.assemble()).tools).toEqual([])
  })

  it('rejects a duplicate name; the reserved rest entry is left to the assembly', async () => {
    const ctx = await mountRegistry()
    await ctx.plugin(toolPlugin('first', ['alpha']))
    expect(() => ctx.tools.register(tool('alpha'))).toThrow('tool "alpha" is already registered (by "first")')
    ctx.tools.register(tool(TOOL_ORDER_REST))
    expect(ctx.tools.get(TOOL_ORDER_REST)).toBeDefined()
    await expect(ctx.systemPrompt.assemble()).rejects.toThrow('tool provider returned reserved tool name')
  })

  it('emits tools/change on registration and disposal', async () => {
    const ctx = await mountRegistry()
    let changes = 0
    ctx.on('tools/change', () => { changes += 1 })
    const dispose = ctx.tools.register(tool('alpha'))
    await dispose()
    expect(changes).toBe(2)
  })

  it('records weight and the dependency depth of the registering fiber', async () => {
    class Deep extends Service {
      static inject = ['tools']
      constructor(ctx: Context) {
        super(ctx, 'deep')
      }
    }
    const ctx = await mountRegistry()
    await ctx.plugin(Deep)
    await ctx.plugin(toolPlugin('shallow', ['shallow'], [], 5))
    await ctx.plugin(toolPlugin('deeper', ['deeper'], ['deep']))
    ctx.tools.register(tool('rooted'))
    const byName = Object.fromEntries(ctx.tools.records().map(record => [record.definition.name, record]))
    // systemPrompt 0 → tools 1 → shallow 2; deep 2 → deeper 3; the root itself 0.
    expect(byName['shallow']).toMatchObject({ depth: 2, weight: 5 })
    expect(byName['deeper']).toMatchObject({ depth: 3 })
    expect(byName['deeper']).not.toHaveProperty('weight')
    expect(byName['rooted']).toMatchObject({ depth: 0, owner: 'root' })
  })

  it('names the loader entry id as owner when a loader entry registers', async () => {
    const modules: Record<string, unknown> = { 'virtual:alpha': toolPlugin('alpha-plugin', ['alpha']) }
    class TableLoader extends Loader {
      override async import(name: string) {
        return modules[name]
      }
    }
    const ctx = await mountRegistry()
    await ctx.plugin(TableLoader)
    await ctx.loader.root.update([{ id: 'entry-7', name: 'virtual:alpha' }])
    await ctx.loader.await()
    expect(ctx.tools.records().map(record => record.owner)).toEqual(['entry-7'])
  })
})
