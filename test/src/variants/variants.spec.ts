import { Context, Service } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isAgentLoopRequest, markAgentLoopRequest } from '../../../src/agent/request-marker.ts'
import type { GenerateOptions } from '../../../src/llm/contract.ts'
import { SystemPrompt } from '../../../src/system-prompt/service.ts'
import { TOOL_ORDER_REST } from '../../../src/system-prompt/tool-order.ts'
import { ToolRegistry } from '../../../src/tools/registry.ts'
import type { ToolRecord } from '../../../src/tools/tool.ts'
import { activeVariant, getVariant, variants } from '../../../src/variants/index.ts'
import { VariantPlugin } from '../../../src/variants/plugin.ts'
import { VARIANT_NAMES } from '../../../src/variants/variant.ts'
import type { Variant, VariantName } from '../../../src/variants/variant.ts'
import { names, tool } from '../../support/system-prompt.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

function record(name: string, seq: number, depth: number, weight?: number): ToolRecord {
  return { definition: tool(name), owner: `owner-${name}`, seq, depth, ...weight === undefined ? {} : { weight } }
}

/** A fixed registration-ordered record list: zulu, mike, Bravo, alpha. */
const records: readonly ToolRecord[] = [record('zulu', 0, 3, 0), record('mike', 1, 2, 2), record('Bravo', 2, 2, -1), record('alpha', 3, 2)]

describe('the variant table', () => {
  it('has one variant per name, each with a summary, and canonical when no service is active', async () => {
    expect(Object.keys(variants)).toEqual([...VARIANT_NAMES])
    for (const name of VARIANT_NAMES) {
      expect(variants[name].name).toBe(name)
      expect(getVariant(name)).toBe(variants[name])
      expect(variants[name].summary.length).toBeGreaterThan(20)
      expect(variants[name].summary).not.toContain('\n')
    }
    expect(() => getVariant('alphabetical')).toThrow('unknown variant "alphabetical"')
    const ctx = new Context()
    expect(activeVariant(ctx)).toBe(variants.canonical)
    await ctx.plugin(VariantPlugin, variants['registry-sort'])
    expect(activeVariant(ctx)).toBe(variants['registry-sort'])
  })

  it('a "variant" service that is no variant fails where a service reads it, with a TypeError', async () => {
    const message = 'the "variant" service must provide a Variant object'
    for (const provided of [{ name: 'alphabetical', sortKnownNames: true }, { name: 'canonical' }, 'canonical']) {
      const ctx = new Context()
      await ctx.plugin(SystemPrompt)
      await ctx.plugin({ name: 'not-a-variant', apply: (inner: Context) => { inner.provide('variant', provided) } })
      expect(() => activeVariant(ctx)).toThrow(new TypeError(message))
      await expect(ctx.systemPrompt.assemble()).rejects.toThrow(TypeError)
      await expect(ctx.systemPrompt.assemble()).rejects.toThrow(message)
    }
  })
})

describe('each variant\'s ordering hooks on a fixed record list', () => {
  const registryOrder = (name: VariantName) => variants[name].registryOrder?.(records).map(entry => entry.definition.name)

  it('canonical, registration-order, locale-compare, unsorted-known-names, loop-order-tools, stream-normalize, listener-random leave the registry alone', () => {
    for (const name of ['canonical', 'registration-order', 'locale-compare', 'unsorted-known-names', 'loop-order-tools', 'stream-normalize', 'listener-random'] as const) {
      expect(variants[name].registryOrder).toBeUndefined()
    }
  })

  it('registry-sort sorts records by code units', () => {
    expect(registryOrder('registry-sort')).toEqual(['Bravo', 'alpha', 'mike', 'zulu'])
  })

  it('dependency-linearization sorts by depth, ties in registration order', () => {
    expect(registryOrder('dependency-linearization')).toEqual(['mike', 'Bravo', 'alpha', 'zulu'])
  })

  it('per-plugin-weight sorts by weight (absent = 0), ties in registration order', () => {
    expect(registryOrder('per-plugin-weight')).toEqual(['Bravo', 'zulu', 'alpha', 'mike'])
  })

  it('registry hooks never mutate their input', () => {
    const before = records.map(entry => entry.definition.name)
    for (const name of VARIANT_NAMES) variants[name].registryOrder?.(records)
    expect(records.map(entry => entry.definition.name)).toEqual(before)
  })

  it('the assembly comparators: code units, none, or locale', () => {
    const sorted = (variant: Variant) => variant.compareNames ? ['zulu', 'alpha', 'Bravo'].sort(variant.compareNames) : null
    expect(sorted(variants.canonical)).toEqual(['Bravo', 'alpha', 'zulu'])
    expect(sorted(variants['unsorted-known-names'])).toEqual(['Bravo', 'alpha', 'zulu'])
    expect(sorted(variants['locale-compare'])).toEqual(['alpha', 'Bravo', 'zulu'])
    for (const name of ['registration-order', 'registry-sort', 'dependency-linearization', 'per-plugin-weight', 'loop-order-tools', 'stream-normalize'] as const) {
      expect(variants[name].compareNames).toBeNull()
    }
    expect(VARIANT_NAMES.filter(name => !variants[name].sortKnownNames)).toEqual(['unsorted-known-names'])
  })

  it('loop-order-tools applies the policy to the tools the loop is handed', () => {
    const loopOrder = variants['loop-order-tools'].loopOrder
    expect(loopOrder).toBeDefined()
    expect(names(loopOrder!([tool('zulu'), tool('alpha'), tool('Bravo')], undefined))).toEqual(['Bravo', 'alpha', 'zulu'])
    expect(names(loopOrder!([tool('zulu'), tool('alpha'), tool('Bravo')], ['zulu', TOOL_ORDER_REST]))).toEqual(['zulu', 'Bravo', 'alpha'])
    // A listed name restricted away is a normal absence, as in the assembly.
    expect(names(loopOrder!([tool('alpha')], ['ghost', TOOL_ORDER_REST]))).toEqual(['alpha'])
  })

  it('stream-normalize rebuilds a frozen, re-marked request with sorted tools and the same key order', () => {
    const streamOrder = variants['stream-normalize'].streamOrder!
    const signal = new AbortController().signal
    const request: GenerateOptions = Object.freeze({
      provider: 'mock', model: 'm', messages: Object.freeze([]), system: 's',
      tools: Object.freeze([tool('zulu'), tool('alpha')]), sessionId: 'id', signal,
    })
    markAgentLoopRequest(request)
    const rebuilt = streamOrder(request)
    expect(rebuilt).not.toBe(request)
    expect(Object.keys(rebuilt)).toEqual(Object.keys(request))
    expect(names(rebuilt.tools!)).toEqual(['alpha', 'zulu'])
    expect(names(request.tools!)).toEqual(['zulu', 'alpha'])
    expect(Object.isFrozen(rebuilt) && Object.isFrozen(rebuilt.tools)).toBe(true)
    expect(rebuilt.signal).toBe(signal)
    expect(isAgentLoopRequest(rebuilt)).toBe(true)
    const { tools: _tools, ...toolless } = request
    expect(streamOrder(toolless)).toBe(toolless)
  })

  it('listener-random shuffles with Math.random and touches nothing else', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const assembly = { sections: [], contexts: [], variables: { a: 'b' }, tools: [tool('a'), tool('b'), tool('c')] }
    const shuffled = variants['listener-random'].assembleListener!(assembly)
    expect(names(shuffled.tools)).toEqual(['b', 'c', 'a'])
    expect(names(assembly.tools)).toEqual(['a', 'b', 'c'])
    expect(shuffled.variables).toBe(assembly.variables)
  })
})

class Deep extends Service {
  static inject = ['tools']
  constructor(ctx: Context) {
    super(ctx, 'deep')
  }
}

/**
 * Real cordis: SystemPrompt, the variant, the registry, then tool plugins in a
 * scrambled registration order (zulu depth 3 weight 0, mike weight 2, Bravo
 * weight -1, alpha unweighted) and a separate provider returning aardvark.
 */
async function compose(variant: Variant, toolOrder?: string[]): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(SystemPrompt, { toolOrder })
  await ctx.plugin(VariantPlugin, variant)
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(Deep)
  const plugin = (name: string, weight: number | undefined, inject: string[]) => ({
    name: `p-${name}`,
    inject,
    apply: (inner: Context) => {
      inner.tools.register(tool(name), { weight })
    },
  })
  await ctx.plugin(plugin('zulu', 0, ['tools', 'deep']))
  await ctx.plugin(plugin('mike', 2, ['tools']))
  await ctx.plugin(plugin('Bravo', -1, ['tools']))
  await ctx.plugin(plugin('alpha', undefined, ['tools']))
  ctx.systemPrompt.tools(() => ({ schemas: [tool('aardvark')] }))
  return ctx
}

async function assembled(name: VariantName): Promise<string[]> {
  const ctx = await compose(variants[name])
  return names((await ctx.systemPrompt.assemble()).tools)
}

describe('a tool-order case per variant, against canonical', () => {
  const CANONICAL = ['Bravo', 'aardvark', 'alpha', 'mike', 'zulu']
  const REGISTRATION = ['zulu', 'mike', 'Bravo', 'alpha', 'aardvark']

  it('canonical: code-unit lexicographic over every provider', async () => {
    expect(await assembled('canonical')).toEqual(CANONICAL)
  })

  it('registration-order: the race itself, registry order then the other provider', async () => {
    expect(await assembled('registration-order')).toEqual(REGISTRATION)
  })

  it('registry-sort: sorted within the registry only; other providers stay where they are', async () => {
    expect(await assembled('registry-sort')).toEqual(['Bravo', 'alpha', 'mike', 'zulu', 'aardvark'])
  })

  it('dependency-linearization: depth order leaves same-depth plugins in race order', async () => {
    expect(await assembled('dependency-linearization')).toEqual(['mike', 'Bravo', 'alpha', 'zulu', 'aardvark'])
  })

  it('per-plugin-weight: weight order, unweighted tools at 0', async () => {
    expect(await assembled('per-plugin-weight')).toEqual(['Bravo', 'zulu', 'alpha', 'mike', 'aardvark'])
  })

  it('loop-order-tools and stream-normalize: the assembly keeps the race order; the sort happens later', async () => {
    expect(await assembled('loop-order-tools')).toEqual(REGISTRATION)
    expect(await assembled('stream-normalize')).toEqual(REGISTRATION)
    const later = variants['loop-order-tools'].loopOrder!(REGISTRATION.map(name => tool(name)), undefined)
    expect(names(later)).toEqual(CANONICAL)
  })

  it('locale-compare: collation differs from code units', async () => {
    const order = await assembled('locale-compare')
    expect(order).toEqual(['aardvark', 'alpha', 'Bravo', 'mike', 'zulu'])
    expect(order).not.toEqual(CANONICAL)
  })

  it('unsorted-known-names: same order, but the failure text follows collection order', async () => {
    expect(await assembled('unsorted-known-names')).toEqual(CANONICAL)
    const unsorted = await compose(variants['unsorted-known-names'], ['ghost', TOOL_ORDER_REST])
    await expect(unsorted.systemPrompt.assemble()).rejects.toThrow(
      new Error('toolOrder lists unregistered tool "ghost"; known tools: zulu, mike, Bravo, alpha, aardvark'),
    )
    const canonical = await compose(variants.canonical, ['ghost', TOOL_ORDER_REST])
    await expect(canonical.systemPrompt.assemble()).rejects.toThrow(
      new Error('toolOrder lists unregistered tool "ghost"; known tools: Bravo, aardvark, alpha, mike, zulu'),
    )
  })

  it('listener-random: canonical before the waterfall, Math.random after it', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const ctx = await compose(variants['listener-random'])
    const seenBefore: string[][] = []
    ctx.on('system-prompt/assemble', (assembly, _context, next) => {
      seenBefore.push(names(assembly.tools))
      return next()
    })
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['aardvark', 'alpha', 'mike', 'zulu', 'Bravo'])
    expect(seenBefore).toEqual([CANONICAL])
  })

  it('a configured toolOrder still places listed tools under every variant', async () => {
    for (const name of VARIANT_NAMES.filter(entry => entry !== 'listener-random')) {
      const ctx = await compose(variants[name], ['mike', TOOL_ORDER_REST])
      expect((await ctx.systemPrompt.assemble()).tools[0]?.name).toBe('mike')
    }
  })
})
