import { Context } from '@deepseek-ai/cordis'
import type { Plugin } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { AcpAgent } from '../../../src/app/acp-agent.ts'
import { AgentCore } from '../../../src/app/agent-core.ts'
import { StdioAgent } from '../../../src/app/stdio-agent.ts'
import { LlmService } from '../../../src/llm/service.ts'
import { SessionStore } from '../../../src/session/store.ts'
import { PERSONA_SECTION, SystemPrompt } from '../../../src/system-prompt/service.ts'
import { TOOL_ORDER_REST } from '../../../src/system-prompt/tool-order.ts'
import { ToolRegistry } from '../../../src/tools/registry.ts'
import { names, tool } from '../../support/system-prompt.ts'

const REST = TOOL_ORDER_REST

interface AppConfig {
  persona?: string
  toolOrder?: string[]
}

/** Each level of the RFC-era chain that exposes `toolOrder`. */
/** Each level of the chain, with the REFERENCE-SPEC 8.6 case that forwards through it. */
const levels: [string, (ctx: Context, config: AppConfig) => PromiseLike<unknown>, string][] = [
  ['agent-core', (ctx, config) => ctx.plugin(AgentCore, config), '8.6/28'],
  ['stdio-agent', (ctx, config) => ctx.plugin(StdioAgent, config), '8.6/29'],
  ['acp-agent', (ctx, config) => ctx.plugin(AcpAgent, config), '8.6/30'],
]

/**
 * Resolves once every named service is active (via a plugin that injects
 * them); rejects on the first error the cordis logger exports from now on.
 */
function whenActive(ctx: Context, services: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    ctx.logger.exporter({
      export: message => {
        if (message.type === 'error') reject(message.args[0])
      },
    })
    ctx.inject(services, () => resolve())
  })
}

/** Resolves with the first error the cordis logger exports. */
function nextLoggedError(ctx: Context): Promise<unknown> {
  return new Promise(resolve => {
    ctx.logger.exporter({
      export: message => {
        if (message.type === 'error') resolve(message.args[0])
      },
    })
  })
}

/** The resolved config of the single live fiber of `plugin`. */
function configOf(ctx: Context, plugin: Plugin): Record<string, unknown> {
  const fibers = [...ctx.registry.get(plugin)?.fibers ?? []]
  expect(fibers).toHaveLength(1)
  return fibers[0]!.config as Record<string, unknown>
}

/**
 * The services agent-core's children need, the app under test, the tool
 * registry, and alpha then zulu registered; fails on any logged load error.
 */
async function boot(mount: (ctx: Context, config: AppConfig) => PromiseLike<unknown>, config: AppConfig): Promise<Context> {
  const ctx = new Context()
  const active = whenActive(ctx, ['tools', 'agentLoop'])
  await ctx.plugin(LlmService)
  await ctx.plugin(SessionStore)
  await mount(ctx, config)
  ctx.plugin(ToolRegistry)
  ctx.plugin({
    name: 'tool-plugins',
    inject: ['tools'],
    apply: inner => {
      inner.tools.register(tool('alpha'))
      inner.tools.register(tool('zulu'))
    },
  })
  await active
  return ctx
}

describe('8.6 forwarding of toolOrder along app → agent-core → SystemPrompt', () => {
  it.each(levels.map(([level, mount, testCase]) => [testCase, level, mount] as const))('%s %s forwards toolOrder [zulu, REST] so the assembly is zulu, alpha', async (_case, _level, mount) => {
    const ctx = await boot(mount, { toolOrder: ['zulu', REST], persona: 'forwarded persona' })
    expect(configOf(ctx, SystemPrompt)['toolOrder']).toEqual(['zulu', REST])
    const assembled = await ctx.systemPrompt.assemble()
    expect(names(assembled.tools)).toEqual(['zulu', 'alpha'])
    expect(assembled.sections.find(section => section.name === PERSONA_SECTION)?.text).toBe('forwarded persona')
  })

  it.each(levels)('8.6/31 %s: omitting toolOrder everywhere leaves the key absent, order lexicographic, no load error', async (_level, mount) => {
    const ctx = await boot(mount, {})
    expect(Object.hasOwn(configOf(ctx, AgentCore), 'toolOrder')).toBe(false)
    expect(Object.hasOwn(configOf(ctx, SystemPrompt), 'toolOrder')).toBe(false)
    expect(ctx.systemPrompt.toolOrder).toBeUndefined()
    expect(names((await ctx.systemPrompt.assemble()).tools)).toEqual(['alpha', 'zulu'])
  })

  it.each(levels)('8.6/31 %s: an explicit [] fails SystemPrompt with the rest-entry message, logged, not thrown at the app', async (_level, mount) => {
    const ctx = new Context()
    await ctx.plugin(LlmService)
    await ctx.plugin(SessionStore)
    const logged = nextLoggedError(ctx)
    await expect(mount(ctx, { toolOrder: [] })).resolves.toBeDefined()
    const error = await logged
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('toolOrder must contain the "<unlisted-tools>" rest entry (where unlisted tools are inserted)')
    expect(configOf(ctx, SystemPrompt)['toolOrder']).toEqual([])
    expect(ctx.get('systemPrompt')).toBeUndefined()
    expect(ctx.get('agentLoop')).toBeUndefined()
  })
})
