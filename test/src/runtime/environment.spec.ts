import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { createDeterministicEnvironment, environmentOf, realEnvironment, type Environment } from '../../../src/runtime/environment.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('the real environment', () => {
  it('reads the wall clock and draws fresh UUIDs', () => {
    const before = Date.now()
    const now = realEnvironment.now()
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(Date.now())
    const ids = new Set([realEnvironment.newId(), realEnvironment.newId(), realEnvironment.newId()])
    expect(ids.size).toBe(3)
    for (const id of ids) expect(id).toMatch(UUID)
  })

  it('cannot be replaced piece by piece: it is frozen', () => {
    expect(Object.isFrozen(realEnvironment)).toBe(true)
  })
})

describe('a deterministic environment', () => {
  it('counts time 0, 1, 2, … and ids id-1, id-2, … call by call, independently', () => {
    const environment = createDeterministicEnvironment()
    expect([environment.now(), environment.now(), environment.now()]).toEqual([0, 1, 2])
    expect([environment.newId(), environment.newId()]).toEqual(['id-1', 'id-2'])
    expect(environment.now()).toBe(3)
  })

  it('starts afresh each time it is made, so two runs replay the same values', () => {
    const first = createDeterministicEnvironment()
    first.now()
    first.newId()
    const second = createDeterministicEnvironment()
    expect([second.now(), second.newId()]).toEqual([0, 'id-1'])
  })
})

describe('the environment a context sees', () => {
  it('is the real one when no `environment` service is provided', () => {
    expect(environmentOf(new Context())).toBe(realEnvironment)
  })

  it('is the provided service while its plugin is active, and the real one again once it is disposed', async () => {
    const root = new Context()
    const injected: Environment = createDeterministicEnvironment()
    const fiber = root.plugin({ name: 'clock', apply: (ctx: Context) => { ctx.provide('environment', injected) } })
    await fiber
    expect(environmentOf(root)).toBe(injected)
    expect(environmentOf(root).newId()).toBe('id-1')
    await fiber.dispose()
    expect(environmentOf(root)).toBe(realEnvironment)
  })
})
