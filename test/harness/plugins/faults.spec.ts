import type { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { importFailure, leakEscaped, misbehave } from '../../../harness/plugins/faults.ts'
import { registered, registryRoot } from '../../support/registry-root.ts'

/** The intervals set while `body` runs, so the spec can clear what a leaking plugin leaves behind. */
const intervals: ReturnType<typeof setInterval>[] = []
async function catchingIntervals<T>(body: () => Promise<T>): Promise<T> {
  const original = globalThis.setInterval
  globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => {
    const handle = original(...args)
    intervals.push(handle)
    return handle
  }) as typeof setInterval
  try {
    return await body()
  } finally {
    globalThis.setInterval = original
  }
}

afterEach(() => {
  for (const handle of intervals.splice(0)) clearInterval(handle)
  process.removeAllListeners('loadrace-leak')
})

describe('a faulty import', () => {
  it('fails with a stable message naming the plugin', () => {
    expect(importFailure('broken')).toEqual(new Error('plugin "broken" failed to import'))
  })
})

describe('a faulty plugin, once its registrations are done', () => {
  it('throws from apply, naming itself', async () => {
    const { root, mounted } = await registryRoot()
    await expect(misbehave(root, 'apply-throws', 'broken', mounted)).rejects.toThrow(new Error('plugin "broken" failed to apply'))
  })

  it('never settles when it hangs', async () => {
    const { root, mounted } = await registryRoot()
    const settled = await Promise.race([misbehave(root, 'apply-hangs', 'stuck', mounted).then(() => 'settled'), new Promise(resolve => setTimeout(resolve, 30, 'pending'))])
    expect(settled).toBe('pending')
  })

  it('does nothing more for an import fault: those happen before the plugin exists', async () => {
    const { root, mounted } = await registryRoot()
    for (const fault of ['import-rejects', 'import-hangs'] as const) await expect(misbehave(root, fault, 'x', mounted)).resolves.toBeUndefined()
    expect(process.listenerCount('loadrace-leak')).toBe(0)
  })

  it('leaks a timer and a process listener that outlive it, and the next leaking plugin tells', async () => {
    const { root, mounted } = await registryRoot()
    const leaking = (id: string) => ({ name: id, inject: ['tools'], apply: (ctx: Context) => misbehave(ctx, 'leak', id, mounted) })
    const first = await catchingIntervals(async () => {
      const fiber = root.plugin(leaking('first'))
      await fiber
      return fiber
    })
    expect(intervals).toHaveLength(1)
    expect(process.listenerCount('loadrace-leak')).toBe(1)
    expect(leakEscaped()).toBe(false)
    await first.dispose()
    // cordis cannot dispose them: the listener stays, and the timer fires after its plugin is gone.
    expect(process.listenerCount('loadrace-leak')).toBe(1)
    await new Promise(resolve => setTimeout(resolve, 20))
    expect(leakEscaped()).toBe(true)
    await catchingIntervals(async () => { await root.plugin(leaking('second')) })
    expect(registered(root)).toEqual(['leak_escaped', 'leak_listener'])
  })
})
