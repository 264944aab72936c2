import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { Config } from '../../../src/system-prompt/config.ts'
import { SystemPrompt } from '../../../src/system-prompt/service.ts'
import { TOOL_ORDER_REST, compareCodeUnits, validateToolOrder } from '../../../src/system-prompt/tool-order.ts'
import { mountSystemPrompt, names, tool } from '../../support/system-prompt.ts'

const REST = TOOL_ORDER_REST

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}

describe('8.1 toolOrder on SystemPrompt', () => {
  it('8.1/1 pins the rest entry as "<unlisted-tools>", in one place', () => {
    expect(TOOL_ORDER_REST).toBe('<unlisted-tools>')
    const pinned = sourceFiles(new URL('../../../src', import.meta.url).pathname)
      .filter(path => readFileSync(path, 'utf8').includes('<unlisted-tools>'))
    expect(pinned.map(path => path.slice(path.lastIndexOf('src')))).toEqual(['src/system-prompt/tool-order.ts'])
  })

  it('8.1/2 orders tools lexicographically without toolOrder', async () => {
    const ctx = await mountSystemPrompt()
    ctx.systemPrompt.tools(() => ({ schemas: [tool('charlie'), tool('alpha')] }))
    ctx.systemPrompt.tools(() => ({ schemas: [tool('bravo')] }))
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['alpha', 'bravo', 'charlie'])
  })

  it('8.1/2 lexicographic means code-unit order, where locale collation would put the same names otherwise', async () => {
    // Code units: upper case before "_" before lower case, "-" before "_", ASCII before "ä"; collation folds case and punctuation.
    const given = ['alpha', 'Zeta', 'a_b', '_private', 'ärger', 'Beta', 'a-b']
    const expected = ['Beta', 'Zeta', '_private', 'a-b', 'a_b', 'alpha', 'ärger']
    expect([...given].sort((a, b) => a.localeCompare(b))).not.toEqual(expected)
    const ctx = await mountSystemPrompt()
    ctx.systemPrompt.tools(() => ({ schemas: given.slice(0, 4).map(name => tool(name)) }))
    ctx.systemPrompt.tools(() => ({ schemas: given.slice(4).map(name => tool(name)) }))
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(expected)
    const listed = await mountSystemPrompt({ toolOrder: ['alpha', REST] })
    listed.systemPrompt.tools(() => ({ schemas: given.map(name => tool(name)) }))
    expect(names((await listed.systemPrompt.assemble()).tools)).toEqual(['alpha', ...expected.filter(name => name !== 'alpha')])
  })

  it('8.1/3 is independent of provider registration order', async () => {
    const orders = [['alpha', 'zulu'], ['zulu', 'alpha']]
    for (const order of orders) {
      const ctx = await mountSystemPrompt()
      for (const name of order) ctx.systemPrompt.tools(() => ({ schemas: [tool(name)] }))
      expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['alpha', 'zulu'])
    }
  })

  it('8.1/4 places listed tools and inserts the rest lexicographically', async () => {
    const ctx = await mountSystemPrompt({ toolOrder: ['todo_write', REST, 'bash'] })
    ctx.systemPrompt.tools(() => ({ schemas: [tool('bash'), tool('echo_b'), tool('todo_write'), tool('echo_a')] }))
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['todo_write', 'echo_a', 'echo_b', 'bash'])
  })

  it('8.1/5 rejects every unregistered listed name at assembly, in list order', async () => {
    const ctx = await mountSystemPrompt({ toolOrder: ['todo_write', 'ghost', REST, 'wraith'] })
    ctx.systemPrompt.tools(() => ({ schemas: [tool('todo_write'), tool('bash')] }))
    await expect(ctx.systemPrompt.assemble()).rejects.toThrow(
      'toolOrder lists unregistered tools "ghost", "wraith"; known tools: bash, todo_write',
    )
  })

  it('8.1/6 rejects a single unregistered name when nothing is registered', async () => {
    const ctx = await mountSystemPrompt({ toolOrder: ['ghost', REST] })
    await expect(ctx.systemPrompt.assemble()).rejects.toThrow(
      new Error('toolOrder lists unregistered tool "ghost"; known tools: (none)'),
    )
  })

  it.each([
    ['without toolOrder', undefined],
    ['with toolOrder [REST]', [REST]],
  ])('8.1/7 rejects a provider tool named like the rest entry (%s)', async (_label, toolOrder) => {
    const ctx = await mountSystemPrompt({ toolOrder })
    ctx.systemPrompt.tools(() => ({ schemas: [tool('alpha'), tool(REST)] }))
    await expect(ctx.systemPrompt.assemble()).rejects.toThrow(
      new Error('tool provider returned reserved tool name "<unlisted-tools>" (reserved for toolOrder\'s rest entry)'),
    )
  })

  it('8.1/8 keeps collection order among tools sharing a name', async () => {
    const ctx = await mountSystemPrompt()
    ctx.systemPrompt.tools(() => ({ schemas: [tool('dup', 'first'), tool('anchor', 'anchor'), tool('dup', 'second')] }))
    const { tools } = await ctx.systemPrompt.assemble()
    expect(tools.map(entry => entry.description)).toEqual(['anchor', 'first', 'second'])
  })

  it('8.1/8 expands a listed shared name to all its tools, in collection order', async () => {
    const ctx = await mountSystemPrompt({ toolOrder: ['dup', REST] })
    ctx.systemPrompt.tools(() => ({ schemas: [tool('dup', 'first'), tool('anchor', 'anchor'), tool('dup', 'second')] }))
    const { tools } = await ctx.systemPrompt.assemble()
    expect(tools.map(entry => entry.description)).toEqual(['first', 'second', 'anchor'])
  })

  it('8.1/9 canonicalizes before the waterfall, and does not re-sort what listeners add', async () => {
    const ctx = await mountSystemPrompt()
    ctx.systemPrompt.tools(() => ({ schemas: [tool('zulu'), tool('alpha')] }))
    const seen: string[][] = []
    ctx.on('system-prompt/assemble', (assembly, _context, next) => {
      seen.push(names(assembly.tools))
      assembly.tools.push(tool('aardvark'))
      return next()
    })
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['alpha', 'zulu', 'aardvark'])
    expect(seen).toEqual([['alpha', 'zulu']])
  })

  it.each([
    ['an empty list', []],
    ['a list without the rest entry', ['bash', 'todo_write']],
  ])('8.1/10 fails the plugin at load for %s', async (_label, toolOrder) => {
    const ctx = new Context()
    await expect(ctx.plugin(SystemPrompt, { toolOrder })).rejects.toThrow(
      'toolOrder must contain the "<unlisted-tools>" rest entry (where unlisted tools are inserted)',
    )
    expect(ctx.get('systemPrompt')).toBeUndefined()
  })

  it.each([
    ['bash', ['bash', 'bash', REST]],
    [REST, [REST, 'bash', REST]],
  ])('8.1/11 fails the plugin at load when "%s" is listed twice', async (name, toolOrder) => {
    const ctx = new Context()
    await expect(ctx.plugin(SystemPrompt, { toolOrder })).rejects.toThrow(new Error(`toolOrder lists "${name}" more than once`))
  })

  it('8.1/12 throws from direct construction', () => {
    const ctx = new Context()
    expect(() => new SystemPrompt(ctx, { toolOrder: ['bash'] })).toThrow('rest entry')
  })
})

describe('toolOrder: null (REFERENCE-SPEC §4.1 edge, decided)', () => {
  it('passes the schema as null, like a YAML key without a value', () => {
    expect(Config({ toolOrder: null })).toHaveProperty('toolOrder', null)
  })

  it('fails the plugin at load with a message naming the key, not a bare TypeError', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(SystemPrompt, { toolOrder: null })).rejects.toThrow(
      new TypeError('toolOrder must be a list of tool names or omitted; got null'),
    )
    expect(ctx.get('systemPrompt')).toBeUndefined()
  })

  it('rejects other non-list values and non-string entries the same way', () => {
    expect(() => validateToolOrder('bash')).toThrow('toolOrder must be a list of tool names or omitted; got string')
    expect(() => validateToolOrder([REST, 7])).toThrow('toolOrder entries must be tool names (strings); got number at index 1')
  })
})

describe('the shape checks and the comparator', () => {
  it('keeps an omitted toolOrder absent through the schema (§6.1)', () => {
    const resolved = Config({})
    expect(Object.hasOwn(resolved, 'toolOrder')).toBe(false)
    expect(Config({ toolOrder: ['a', REST] }).toolOrder).toEqual(['a', REST])
  })

  it('returns undefined for lexicographic mode and a frozen copy otherwise', () => {
    expect(validateToolOrder(undefined)).toBeUndefined()
    const list = ['a', REST]
    const validated = validateToolOrder(list)
    expect(validated).toEqual(list)
    expect(validated).not.toBe(list)
    expect(Object.isFrozen(validated)).toBe(true)
  })

  it('compares code units, not locale collation', () => {
    expect(['b', 'a', 'B', 'ä', 'Z'].sort(compareCodeUnits)).toEqual(['B', 'Z', 'a', 'b', 'ä'])
    expect(compareCodeUnits('same', 'same')).toBe(0)
  })
})
