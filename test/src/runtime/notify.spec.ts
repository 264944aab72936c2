import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { notifyContained } from '../../../src/runtime/notify.ts'

declare module '@deepseek-ai/cordis' {
  interface Events {
    'runtime-spec/ping'(value: number): void
  }
}

/** A context whose logger's warnings (level 2, above the default threshold) are collected in `warnings`. */
function watched(): { ctx: Context, warnings: string[] } {
  const ctx = new Context()
  const warnings: string[] = []
  ctx.logger.exporter({ levels: { default: 2 }, export: message => { if (message.type === 'warn') warnings.push(message.args.map(String).join(' ')) } })
  return { ctx, warnings }
}

describe('a contained notification', () => {
  it('reaches every listener with its arguments, whichever of them throws', () => {
    const { ctx, warnings } = watched()
    const heard: string[] = []
    ctx.on('runtime-spec/ping', value => { heard.push(`first ${value}`) })
    ctx.on('runtime-spec/ping', () => { throw new Error('boom') })
    ctx.on('runtime-spec/ping', value => { heard.push(`third ${value}`) })
    expect(() => notifyContained(ctx, 'runtime-spec/ping', 7)).not.toThrow()
    expect(heard).toEqual(['first 7', 'third 7'])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('"runtime-spec/ping" listener threw')
    expect(warnings[0]).toContain('Error: boom')
  })

  it('logs a listener that rejects, and leaves no rejection unhandled', async () => {
    const { ctx, warnings } = watched()
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => { unhandled.push(reason) }
    process.on('unhandledRejection', onUnhandled)
    try {
      ctx.on('runtime-spec/ping', async () => { throw new Error('late') })
      notifyContained(ctx, 'runtime-spec/ping', 1)
      await new Promise(resolve => setTimeout(resolve, 10))
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
    expect(unhandled).toEqual([])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('"runtime-spec/ping" listener rejected')
    expect(warnings[0]).toContain('Error: late')
  })

  it('is live: a listener of a disposed plugin hears nothing', async () => {
    const { ctx } = watched()
    const heard: number[] = []
    const fiber = ctx.plugin({ name: 'listener', apply: (inner: Context) => { inner.on('runtime-spec/ping', value => { heard.push(value) }) } })
    await fiber
    notifyContained(ctx, 'runtime-spec/ping', 1)
    await fiber.dispose()
    notifyContained(ctx, 'runtime-spec/ping', 2)
    expect(heard).toEqual([1])
  })
})
