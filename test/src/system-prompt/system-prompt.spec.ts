import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { InvariantError, SystemPromptInvariant } from '../../../src/system-prompt/invariant.ts'
import { renderContexts, renderPrompt } from '../../../src/system-prompt/render.ts'
import { HARNESS_IDENTITY_SECTION, HARNESS_IDENTITY_TEXT, PERSONA_SECTION, SystemPrompt } from '../../../src/system-prompt/service.ts'
import type { PromptAssembly } from '../../../src/system-prompt/prompt.ts'
import { mountSystemPrompt, names, tool } from '../../support/system-prompt.ts'

describe('8.3 SystemPrompt assembly', () => {
  it('8.3/16 snapshots provider membership per assembly', async () => {
    const ctx = await mountSystemPrompt()
    let registered = false
    ctx.systemPrompt.tools(() => {
      if (!registered) {
        registered = true
        ctx.systemPrompt.tools(() => ({ schemas: [tool('late')] }))
      }
      return { schemas: [tool('first')] }
    })
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['first'])
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['first', 'late'])
  })

  it('8.3/17 returns detached tool schemas with exactly name, description, parameters', async () => {
    const ctx = await mountSystemPrompt()
    const source = { name: 'alpha', description: 'original', parameters: { type: 'object', properties: { path: { type: 'string' } } }, extra: true }
    ctx.systemPrompt.tools(() => ({ schemas: [source] }))

    const first = await ctx.systemPrompt.assemble()
    expect(Object.keys(first.tools[0]!)).toEqual(['name', 'description', 'parameters'])
    first.tools[0]!.description = 'mutated'
    ;(first.tools[0]!.parameters['properties'] as Record<string, unknown>)['path'] = 'mutated'

    const second = await ctx.systemPrompt.assemble()
    expect(second.tools[0]).toEqual({ name: 'alpha', description: 'original', parameters: { type: 'object', properties: { path: { type: 'string' } } } })
    expect(source.parameters.properties.path).toEqual({ type: 'string' })
  })

  it('8.3/18 emits system-prompt/change on tool provider registration and disposal', async () => {
    const ctx = await mountSystemPrompt()
    let changes = 0
    ctx.on('system-prompt/change', () => { changes += 1 })
    const dispose = ctx.systemPrompt.tools(() => ({ schemas: [tool('alpha')] }))
    expect(changes).toBe(1)
    await dispose()
    expect(changes).toBe(2)
  })

  it('8.3/18 rolls a registration back when a change listener throws', async () => {
    const ctx = await mountSystemPrompt()
    const stopThrowing = ctx.on('system-prompt/change', () => {
      throw new Error('listener refuses')
    })
    expect(() => ctx.systemPrompt.tools(() => ({ schemas: [tool('alpha')] }))).toThrow('listener refuses')
    expect(() => ctx.systemPrompt.section({ name: 'extra', order: 1, text: 'x' })).toThrow('listener refuses')
    stopThrowing()
    const assembled = await ctx.systemPrompt.assemble()
    expect(assembled.tools).toEqual([])
    expect(assembled.sections.map(section => section.name)).not.toContain('extra')
    ctx.systemPrompt.section({ name: 'extra', order: 1, text: 'x' })
  })

  it('8.3/19 listeners compose in registration order and receive the caller\'s context object', async () => {
    const ctx = await mountSystemPrompt()
    const trace: string[] = []
    const context = { label: 'caller' }
    const seenContexts: unknown[] = []
    ctx.on('system-prompt/assemble', async (_assembly, received, next) => {
      trace.push('first:before')
      seenContexts.push(received)
      const result = await next()
      trace.push('first:after')
      return result
    })
    ctx.on('system-prompt/assemble', async (_assembly, received, next) => {
      trace.push('second:before')
      seenContexts.push(received)
      const result = await next()
      trace.push('second:after')
      return result
    })
    await ctx.systemPrompt.assemble(context)
    expect(trace).toEqual(['first:before', 'second:before', 'second:after', 'first:after'])
    expect(seenContexts).toEqual([context, context])
    expect(seenContexts[0]).toBe(context)
  })

  it('8.3/19 a listener can short-circuit with its own assembly, which is authoritative', async () => {
    const ctx = await mountSystemPrompt()
    ctx.systemPrompt.tools(() => ({ schemas: [tool('alpha')] }))
    const replacement: PromptAssembly = { sections: [{ name: 'only', order: 0, text: 'replaced' }], contexts: [], variables: {}, tools: [tool('zulu'), tool('bravo')] }
    let laterCalled = false
    ctx.on('system-prompt/assemble', () => replacement)
    ctx.on('system-prompt/assemble', (_assembly, _context, next) => {
      laterCalled = true
      return next()
    })
    expect(await ctx.systemPrompt.assemble()).toBe(replacement)
    expect(laterCalled).toBe(false)
  })

  it('8.3/19 restores the one complete section after the waterfall', async () => {
    const ctx = await mountSystemPrompt({ persona: 'persona' })
    ctx.systemPrompt.section({ name: 'takeover', order: 50, text: 'complete prompt', complete: true })
    ctx.on('system-prompt/assemble', async (_assembly, _context, next) => {
      const result = await next()
      return { ...result, sections: [...result.sections, { name: 'listener', order: 99, text: 'added' }] }
    })
    const assembled = await ctx.systemPrompt.assemble()
    expect(assembled.sections).toEqual([{ name: 'takeover', order: 50, text: 'complete prompt', complete: true }])
  })

  it('8.3/19 rejects two complete sections', async () => {
    const ctx = await mountSystemPrompt()
    ctx.systemPrompt.section({ name: 'a', order: 1, text: 'a', complete: true })
    ctx.systemPrompt.section({ name: 'b', order: 2, text: 'b', complete: true })
    await expect(ctx.systemPrompt.assemble()).rejects.toThrow('multiple complete prompt sections are active: "a", "b"')
  })

  it('8.3/20 the invariant companion rejects a malformed authoritative assembly', async () => {
    const ctx = await mountSystemPrompt()
    await ctx.plugin(SystemPromptInvariant)
    ctx.systemPrompt.tools(() => ({ schemas: [tool('alpha')] }))
    await expect(ctx.systemPrompt.assemble()).resolves.toBeDefined()

    const dispose = ctx.on('system-prompt/assemble', async (_assembly, _context, next) => {
      const result = await next()
      return { ...result, tools: [...result.tools, tool('')] }
    })
    const rejected = ctx.systemPrompt.assemble()
    await expect(rejected).rejects.toBeInstanceOf(InvariantError)
    await expect(rejected).rejects.toThrow('invariant violated by "loadrace/system-prompt": assembled tool names must be non-empty strings')
    dispose()

    ctx.on('system-prompt/assemble', async (_assembly, _context, next) => {
      const result = await next()
      return { ...result, sections: [...result.sections, { ...result.sections[0]! }] }
    })
    await expect(ctx.systemPrompt.assemble()).rejects.toThrow(`assembled section name "${HARNESS_IDENTITY_SECTION}" is duplicated`)
  })
})

describe('SystemPrompt construction and registration (REFERENCE-SPEC §4.1–§4.2)', () => {
  it('registers identity and persona sections, in order, and honours the switches', async () => {
    const full = await (await mountSystemPrompt({ persona: 'be brief' })).systemPrompt.assemble()
    expect(full.sections).toEqual([
      { name: HARNESS_IDENTITY_SECTION, order: -100, text: HARNESS_IDENTITY_TEXT },
      { name: PERSONA_SECTION, order: 0, text: 'be brief' },
    ])
    const ctx = await mountSystemPrompt({ includeHarnessIdentity: false, includeRuntimeContext: false })
    ctx.systemPrompt.context({ name: 'clock', order: 0, text: 'now' })
    const bare = await ctx.systemPrompt.assemble()
    expect(bare.sections).toEqual([{ name: PERSONA_SECTION, order: 0, text: '' }])
    expect(bare.contexts).toEqual([])
  })

  it('registrations are effects of the calling plugin\'s fiber', async () => {
    const ctx = await mountSystemPrompt()
    const fiber = ctx.plugin({
      inject: ['systemPrompt'],
      apply: inner => {
        inner.systemPrompt.section({ name: 'plugin', order: 10, text: 'from plugin' })
        inner.systemPrompt.tools(() => ({ schemas: [tool('plugin_tool')] }))
      },
    })
    await fiber
    const loaded = await ctx.systemPrompt.assemble()
    expect(loaded.sections.map(section => section.name)).toContain('plugin')
    expect(names(loaded.tools)).toEqual(['plugin_tool'])
    await fiber.dispose()
    const unloaded = await ctx.systemPrompt.assemble()
    expect(unloaded.sections.map(section => section.name)).not.toContain('plugin')
    expect(unloaded.tools).toEqual([])
  })

  it('sorts sections and contexts by order (stable) and resolves function texts with the context', async () => {
    const ctx = await mountSystemPrompt({ includeHarnessIdentity: false })
    ctx.systemPrompt.section({ name: 'z', order: 5, text: 'z' })
    ctx.systemPrompt.section({ name: 'a', order: 5, text: context => `a:${String(context['who'])}` })
    ctx.systemPrompt.section({ name: 'first', order: -1, text: 'first' })
    ctx.systemPrompt.context({ name: 'late', order: 2, text: 'late' })
    ctx.systemPrompt.context({ name: 'early', order: 1, text: context => `early:${String(context['who'])}` })
    const assembled = await ctx.systemPrompt.assemble({ who: 'me' })
    expect(assembled.sections.map(section => section.text)).toEqual(['first', '', 'z', 'a:me'])
    expect(assembled.contexts.map(entry => entry.text)).toEqual(['early:me', 'late'])
  })

  it('evaluates variables live: one registered during evaluation is evaluated too', async () => {
    const ctx = await mountSystemPrompt()
    ctx.systemPrompt.variable('first', () => {
      ctx.systemPrompt.variable('second', () => 'two')
      return 'one'
    })
    expect((await ctx.systemPrompt.assemble()).variables).toEqual({ first: 'one', second: 'two' })
  })

  it('rejects invalid registrations', async () => {
    const ctx = await mountSystemPrompt()
    expect(() => ctx.systemPrompt.section({ name: 'x', order: Number.NaN, text: '' })).toThrow('prompt section "x" order must be a finite number')
    expect(() => ctx.systemPrompt.context({ name: 'y', order: Infinity, text: '' })).toThrow('prompt context "y" order must be a finite number')
    expect(() => ctx.systemPrompt.variable('Bad', () => '')).toThrow('invalid prompt variable name "Bad"')
    expect(() => ctx.systemPrompt.section({ name: PERSONA_SECTION, order: 3, text: '' })).toThrow(`prompt section "${PERSONA_SECTION}" is already registered`)
  })

  it('fails assemble() as a rejection, never synchronously', async () => {
    const ctx = new Context()
    await ctx.plugin(SystemPrompt, { toolOrder: ['ghost', '<unlisted-tools>'] })
    let promise: Promise<unknown> | undefined
    expect(() => { promise = ctx.systemPrompt.assemble() }).not.toThrow()
    await expect(promise).rejects.toThrow('unregistered tool "ghost"')
  })
})

describe('renderPrompt (REFERENCE-SPEC §4.7)', () => {
  const base = (sections: PromptAssembly['sections'], variables: PromptAssembly['variables'] = {}): PromptAssembly =>
    ({ sections, contexts: [], variables, tools: [] })
  const section = (name: string, text: string) => ({ name, order: 0, text })

  it('interpolates, drops empty sections and joins with a blank line', () => {
    const assembly = base([section('a', 'Hi {{who}}.'), section('b', ''), section('c', '{{who}}{{who}}')], { who: 'you' })
    expect(renderPrompt(assembly)).toBe('Hi you.\n\nyouyou')
    expect(renderPrompt(base([]))).toBe('')
  })

  it('does not rescan substituted values and keeps a lone "{{" literal', () => {
    expect(renderPrompt(base([section('a', '{{x}} and {{ open')], { x: '{{y}}' }))).toBe('{{y}} and {{ open')
  })

  it('rejects unknown, valueless and malformed references', () => {
    expect(() => renderPrompt(base([section('a', '{{nope}}')], { who: 'x' }))).toThrow('unknown variable "{{nope}}" in section "a"; variables: who')
    expect(() => renderPrompt(base([section('a', '{{who}}')], { who: undefined }))).toThrow('variable "{{who}}" has no value')
    expect(() => renderPrompt(base([section('a', '{{ who }}')], { who: 'x' }))).toThrow('malformed variable reference')
    expect(() => renderPrompt(base([section('a', '{{{who}}}')], { who: 'x' }))).toThrow('malformed variable reference')
    expect(() => renderPrompt(base([section('a', '{{constructor}}')]))).toThrow('unknown variable')
  })

  it('renders runtime contexts the same way', () => {
    const assembly: PromptAssembly = {
      sections: [],
      contexts: [{ name: 'clock', order: 0, text: 'at {{time}}' }, { name: 'empty', order: 1, text: '' }],
      variables: { time: 'noon' },
      tools: [],
    }
    expect(renderContexts(assembly)).toEqual([{ name: 'clock', text: 'at noon' }])
  })
})
