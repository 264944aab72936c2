import { describe, expect, it } from 'vitest'
import { scopedContext } from '../../../src/system-prompt/scope.ts'
import { PERSONA_SECTION } from '../../../src/system-prompt/service.ts'
import { TOOL_ORDER_REST } from '../../../src/system-prompt/tool-order.ts'
import { mountSystemPrompt, names, tool } from '../../support/system-prompt.ts'

const REST = TOOL_ORDER_REST

describe('8.2 toolOrder × scope', () => {
  it('8.2/13 scoped providers only contribute to their scope', async () => {
    const ctx = await mountSystemPrompt()
    const agent = { id: 'a1' }
    const other = { id: 'a2' }
    ctx.systemPrompt.tools(() => ({ schemas: [tool('global_tool')] }))
    scopedContext(ctx, agent).systemPrompt.tools(() => ({ schemas: [tool('scoped_tool')] }))

    expect(names((await ctx.systemPrompt.assemble({ scope: agent })).tools)).toEqual(['global_tool', 'scoped_tool'])
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['global_tool'])
    expect(names((await ctx.systemPrompt.assemble({ scope: other })).tools)).toEqual(['global_tool'])
  })

  it('8.2/14 disposing a scoped provider leaves no residue; re-registration works', async () => {
    const ctx = await mountSystemPrompt()
    const agent = {}
    const scoped = scopedContext(ctx, agent)
    ctx.systemPrompt.tools(() => ({ schemas: [tool('global_tool')] }))
    const provider = () => ({ schemas: [tool('scoped_tool')] })

    const dispose = scoped.systemPrompt.tools(provider)
    const disposeSection = scoped.systemPrompt.section({ name: 'scoped:note', order: 5, text: 'scoped' })
    await dispose()
    await disposeSection()
    const after = await ctx.systemPrompt.assemble({ scope: agent })
    expect(after).toEqual(await ctx.systemPrompt.assemble())
    expect(names(after.tools)).toEqual(['global_tool'])

    scoped.systemPrompt.tools(provider)
    scoped.systemPrompt.section({ name: 'scoped:note', order: 5, text: 'again' })
    const again = await ctx.systemPrompt.assemble({ scope: agent })
    expect(names(again.tools)).toEqual(['global_tool', 'scoped_tool'])
    expect(again.sections.find(section => section.name === 'scoped:note')?.text).toBe('again')
  })

  it('8.2/14 unloading the fiber that registered through a scope removes its contributions', async () => {
    const ctx = await mountSystemPrompt()
    const agent = {}
    const fiber = ctx.plugin({
      inject: ['systemPrompt'],
      apply: inner => {
        scopedContext(inner, agent).systemPrompt.tools(() => ({ schemas: [tool('scoped_tool')] }))
      },
    })
    await fiber
    expect(names((await ctx.systemPrompt.assemble({ scope: agent })).tools)).toEqual(['scoped_tool'])
    await fiber.dispose()
    expect(names((await ctx.systemPrompt.assemble({ scope: agent })).tools)).toEqual([])
  })

  it('8.2/15 a known but restricted listed name is a normal absence; a misspelling is not', async () => {
    const provider = () => ({ schemas: [tool('read')], knownNames: ['read', 'bash'] })

    const restricted = await mountSystemPrompt({ toolOrder: ['bash', REST] })
    restricted.systemPrompt.tools(provider)
    expect(names((await restricted.systemPrompt.assemble()).tools)).toEqual(['read'])

    const misspelled = await mountSystemPrompt({ toolOrder: ['basj', REST] })
    misspelled.systemPrompt.tools(provider)
    await expect(misspelled.systemPrompt.assemble()).rejects.toThrow(
      new Error('toolOrder lists unregistered tool "basj"; known tools: bash, read'),
    )
  })
})

describe('scoped layers (REFERENCE-SPEC §4.2)', () => {
  it('a scoped section shadows the global one of the same name, in place', async () => {
    const ctx = await mountSystemPrompt({ persona: 'deployment persona', includeHarnessIdentity: false })
    const agent = {}
    scopedContext(ctx, agent).systemPrompt.section({ name: PERSONA_SECTION, order: 0, text: 'agent persona' })
    ctx.systemPrompt.section({ name: 'later', order: 10, text: 'later' })

    const scoped = await ctx.systemPrompt.assemble({ scope: agent })
    expect(scoped.sections.map(section => section.text)).toEqual(['agent persona', 'later'])
    const global = await ctx.systemPrompt.assemble()
    expect(global.sections.map(section => section.text)).toEqual(['deployment persona', 'later'])
  })

  it('rejects a duplicate name within one layer but not across layers', async () => {
    const ctx = await mountSystemPrompt()
    const scoped = scopedContext(ctx, {})
    scoped.systemPrompt.variable('who', () => 'scoped')
    ctx.systemPrompt.variable('who', () => 'global')
    expect(() => scoped.systemPrompt.variable('who', () => 'twice')).toThrow('prompt variable "who" is already registered in this scope')
    expect(() => ctx.systemPrompt.variable('who', () => 'twice')).toThrow('prompt variable "who" is already registered')
  })

  it('nearer scopes win; a child scope sees its parent\'s layer and parent listeners see the child', async () => {
    const ctx = await mountSystemPrompt()
    const team = {}
    const agent = {}
    const teamCtx = scopedContext(ctx, team)
    const agentCtx = scopedContext(ctx, agent, { parent: team })
    ctx.systemPrompt.variable('who', () => 'global')
    teamCtx.systemPrompt.variable('who', () => 'team')
    teamCtx.systemPrompt.tools(() => ({ schemas: [tool('team_tool')] }))
    agentCtx.systemPrompt.variable('who', () => 'agent')

    const seenByTeam: unknown[] = []
    teamCtx.on('system-prompt/assemble', (assembly, context, next) => {
      seenByTeam.push(context.scope)
      return next()
    })
    const assembled = await ctx.systemPrompt.assemble({ scope: agent })
    expect(assembled.variables).toEqual({ who: 'agent' })
    expect(names(assembled.tools)).toEqual(['team_tool'])
    expect((await ctx.systemPrompt.assemble({ scope: team })).variables).toEqual({ who: 'team' })
    await ctx.systemPrompt.assemble()
    expect(seenByTeam).toEqual([agent, team])
  })

  it('scoped listeners only see their scope\'s assemblies; global ones see all', async () => {
    const ctx = await mountSystemPrompt()
    const agent = {}
    const seen: string[] = []
    scopedContext(ctx, agent).on('system-prompt/assemble', (_assembly, context, next) => {
      seen.push(`scoped:${String(context['label'])}`)
      return next()
    })
    scopedContext(ctx, {}).on('system-prompt/assemble', (_assembly, context, next) => {
      seen.push(`global:${String(context['label'])}`)
      return next()
    }, { global: true })
    await ctx.systemPrompt.assemble({ label: 'none' })
    await ctx.systemPrompt.assemble({ scope: agent, label: 'agent' })
    expect(seen).toEqual(['global:none', 'scoped:agent', 'global:agent'])
  })

  it('a suppressor in a scope drops runtime context for that scope only', async () => {
    const ctx = await mountSystemPrompt()
    const agent = {}
    ctx.systemPrompt.context({ name: 'clock', order: 0, text: 'now' })
    scopedContext(ctx, agent).systemPrompt.suppressRuntimeContext()
    expect((await ctx.systemPrompt.assemble({ scope: agent })).contexts).toEqual([])
    expect((await ctx.systemPrompt.assemble()).contexts).toEqual([{ name: 'clock', order: 0, text: 'now' }])
  })
})
