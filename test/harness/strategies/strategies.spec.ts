import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { spaceOf } from '../../../harness/space/space.ts'
import type { Schedule } from '../../../harness/space/space.ts'
import { formatGuarantee, strategies } from '../../../harness/strategies/index.ts'
import { DEFAULT_BUDGET } from '../../../harness/settings/defaults.ts'
import type { StrategyName, StrategyOptions } from '../../../harness/strategies/index.ts'
import { missingOrders, multinomial, plainShapes, shapesArbitrary, validSchedule } from '../../support/schedule-shapes.ts'
import type { Shape } from '../../support/schedule-shapes.ts'

function run(name: StrategyName, shapes: Shape[], options: Partial<StrategyOptions> = {}): string[][] {
  const plan = strategies[name].plan(spaceOf(shapes), { seed: 'spec', budget: DEFAULT_BUDGET, ...options })
  return [...plan.schedules].map((schedule) => [...schedule])
}

function keys(schedules: readonly Schedule[]): Set<string> {
  return new Set(schedules.map((schedule) => schedule.join(',')))
}

function expectValidDistinct(shapes: Shape[], schedules: string[][]): void {
  const invalid = schedules.filter((schedule) => !validSchedule(shapes, schedule))
  expect(invalid).toEqual([])
  expect(keys(schedules).size).toBe(schedules.length)
}

/** How often a schedule switches away from a plugin that still has batches to run. */
function preemptions(shapes: Shape[], schedule: string[]): number {
  const left = new Map(shapes.map((shape) => [shape.id, shape.batches]))
  let count = 0
  schedule.forEach((op, i) => {
    const plugin = op.split('#')[0] as string
    left.set(plugin, (left.get(plugin) as number) - 1)
    const following = schedule[i + 1]
    if (following !== undefined && following.split('#')[0] !== plugin && (left.get(plugin) as number) > 0) count++
  })
  return count
}

const batched: Shape[] = [
  { id: 'a', batches: 2 },
  { id: 'b', batches: 3 },
  { id: 'c', batches: 1 },
]

describe('exhaustive', () => {
  it('yields all 720 orders of six single-batch plugins and reports completion', () => {
    const shapes = plainShapes(6)
    const plan = strategies.exhaustive.plan(spaceOf(shapes), { seed: 'x', budget: DEFAULT_BUDGET })
    const schedules = [...plan.schedules].map((schedule) => [...schedule])
    expect(schedules).toHaveLength(720)
    expectValidDistinct(shapes, schedules)
    expect(plan.guarantee(720, true)).toEqual({ kind: 'exhaustive' })
    expect(plan.guarantee(719, false)).toEqual({ kind: 'sampled' })
  })

  it('yields exactly the multinomial count when plugins have batches', () => {
    const schedules = run('exhaustive', batched)
    expect(schedules).toHaveLength(multinomial(batched)) // 6! / (2! 3! 1!) = 60
    expect(schedules).toHaveLength(60)
    expectValidDistinct(batched, schedules)
  })

  it('enumerates in lexicographic order of plugin choices', () => {
    expect(run('exhaustive', plainShapes(3))).toEqual([
      ['p0', 'p1', 'p2'],
      ['p0', 'p2', 'p1'],
      ['p1', 'p0', 'p2'],
      ['p1', 'p2', 'p0'],
      ['p2', 'p0', 'p1'],
      ['p2', 'p1', 'p0'],
    ])
  })

  it('is cut by the budget and then only claims a sample', () => {
    const plan = strategies.exhaustive.plan(spaceOf(plainShapes(6)), { seed: 'x', budget: 100 })
    expect([...plan.schedules]).toHaveLength(100)
    expect(plan.guarantee(100, true)).toEqual({ kind: 'sampled' })
  })

  it('stays lazy on a space of 479 001 600 schedules', () => {
    const schedules = run('exhaustive', plainShapes(12), { budget: 3 })
    expect(schedules).toEqual([
      ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'p11'],
      ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p11', 'p10'],
      ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p10', 'p9', 'p11'],
    ])
  })

  it('matches the multinomial on random spaces', () => {
    fc.assert(
      fc.property(shapesArbitrary(4, 3), (shapes) => {
        const schedules = run('exhaustive', shapes, { budget: Infinity })
        expect(schedules).toHaveLength(multinomial(shapes))
        expectValidDistinct(shapes, schedules)
      }),
      { numRuns: 40 },
    )
  })
})

describe.each(['random', 'pct'] as const)('%s', (name) => {
  it('yields valid, distinct schedules up to the budget', () => {
    const schedules = run(name, plainShapes(8), { budget: 200 })
    expect(schedules).toHaveLength(200)
    expectValidDistinct(plainShapes(8), schedules)
  })

  it('is stable for a seed and changes with it', () => {
    const first = run(name, batched, { seed: 'one', budget: 20 })
    expect(run(name, batched, { seed: 'one', budget: 20 })).toEqual(first)
    expect(run(name, batched, { seed: 'two', budget: 20 })).not.toEqual(first)
  })

  it('replays the same list when the plan is iterated twice', () => {
    const plan = strategies[name].plan(spaceOf(batched), { seed: 'again', budget: 15 })
    expect([...plan.schedules]).toEqual([...plan.schedules])
  })

  it('stops when the space is used up and only then claims exhaustive', () => {
    const shapes = plainShapes(3)
    const plan = strategies[name].plan(spaceOf(shapes), { seed: 'small', budget: 100 })
    const schedules = [...plan.schedules]
    expect(keys(schedules).size).toBeLessThanOrEqual(6)
    expect(plan.guarantee(schedules.length, true)).toEqual(schedules.length === 6 ? { kind: 'exhaustive' } : { kind: 'sampled' })
    expect(plan.guarantee(2, true)).toEqual({ kind: 'sampled' })
  })

  it('produces valid, distinct schedules on random spaces', () => {
    fc.assert(
      fc.property(shapesArbitrary(6, 3), fc.string(), (shapes, seed) => {
        const schedules = run(name, shapes, { seed, budget: 30 })
        expect(schedules.length).toBeGreaterThan(0)
        expect(schedules.length).toBeLessThanOrEqual(Math.min(30, multinomial(shapes)))
        expectValidDistinct(shapes, schedules)
      }),
      { numRuns: 40 },
    )
  })
})

describe('random', () => {
  it('reaches every schedule of a small space', () => {
    const schedules = run('random', batched, { budget: 1000 })
    expect(schedules).toHaveLength(60)
  })
})

describe('pct', () => {
  it('with depth 1 only runs each plugin to completion (no change points)', () => {
    const schedules = run('pct', batched, { depth: 1, budget: 100 })
    expect(schedules).toHaveLength(6) // the 3! orders of whole plugins
    for (const schedule of schedules) expect(preemptions(batched, schedule)).toBe(0)
  })

  it('never preempts more often than depth − 1', () => {
    fc.assert(
      fc.property(shapesArbitrary(5, 4), fc.integer({ min: 1, max: 4 }), fc.string(), (shapes, depth, seed) => {
        for (const schedule of run('pct', shapes, { seed, depth, budget: 20 })) {
          expect(preemptions(shapes, schedule)).toBeLessThanOrEqual(depth - 1)
        }
      }),
      { numRuns: 40 },
    )
  })

  it('with depth 2 demotes the running plugin once: a preempted plugin finishes last', () => {
    const schedules = run('pct', batched, { depth: 2, budget: 100 })
    const preempted = schedules.filter((schedule) => preemptions(batched, schedule) === 1)
    expect(preempted.length).toBeGreaterThan(0)
    for (const schedule of preempted) {
      const switchAt = schedule.findIndex((op, i) => {
        const plugin = op.split('#')[0]
        const rest = schedule.slice(i + 1)
        return rest.length > 0 && rest[0]?.split('#')[0] !== plugin && rest.some((later) => later.split('#')[0] === plugin)
      })
      const demoted = (schedule[switchAt] as string).split('#')[0]
      const last = schedule[schedule.length - 1] as string
      expect(last.split('#')[0]).toBe(demoted)
    }
  })

  it('rejects a depth that is not a whole number ≥ 1', () => {
    expect(() => run('pct', batched, { depth: 0 })).toThrow(/depth/)
  })
})

describe('auto', () => {
  it('starts a two-plugin space with a schedule and its reverse', () => {
    const schedules = run('auto', plainShapes(2))
    expect(schedules).toHaveLength(2)
    expect(schedules[1]).toEqual([...(schedules[0] as string[])].reverse())
  })

  it('runs the 3-way rows first, then the rest of the space, and claims each level on time', () => {
    const shapes = plainShapes(6)
    const plan = strategies.auto.plan(spaceOf(shapes), { seed: 'auto', budget: DEFAULT_BUDGET })
    const schedules = [...plan.schedules].map((schedule) => [...schedule])
    const rows = [...strategies.cover.plan(spaceOf(shapes), { seed: 'auto', budget: DEFAULT_BUDGET }).schedules]
    expect(rows.length).toBeLessThan(720)
    expect(schedules.slice(0, rows.length)).toEqual(rows)
    expect(missingOrders(shapes, schedules.slice(0, rows.length), 3)).toEqual([])
    expect(schedules).toHaveLength(720)
    expectValidDistinct(shapes, schedules)
    expect(plan.guarantee(rows.length - 1, false)).toEqual({ kind: 'sampled' })
    expect(plan.guarantee(rows.length, false)).toEqual({ kind: 't-way', strength: 3 })
    expect(plan.guarantee(720, true)).toEqual({ kind: 'exhaustive' })
  })

  it('beyond the budget: 3-way rows, then distinct random schedules up to the budget', () => {
    const shapes = plainShapes(10)
    const plan = strategies.auto.plan(spaceOf(shapes), { seed: 'wide', budget: 100 })
    const schedules = [...plan.schedules].map((schedule) => [...schedule])
    expect(schedules).toHaveLength(100)
    expectValidDistinct(shapes, schedules)
    const rows = [...strategies.cover.plan(spaceOf(shapes), { seed: 'wide', budget: 100 }).schedules]
    expect(schedules.slice(0, rows.length)).toEqual(rows)
    expect(plan.guarantee(100, true)).toEqual({ kind: 't-way', strength: 3 })
    expect(plan.guarantee(rows.length - 1, false)).toEqual({ kind: 'sampled' })
  })

  it('falls back to the 2-way pair when the 3-way rows do not fit', () => {
    const shapes = plainShapes(10)
    const plan = strategies.auto.plan(spaceOf(shapes), { seed: 'tight', budget: 5 })
    const schedules = [...plan.schedules].map((schedule) => [...schedule])
    expect(schedules).toHaveLength(5)
    expectValidDistinct(shapes, schedules)
    expect(schedules[1]).toEqual([...(schedules[0] as string[])].reverse())
    expect(plan.guarantee(2, false)).toEqual({ kind: 't-way', strength: 2 })
    expect(plan.guarantee(1, false)).toEqual({ kind: 'sampled' })
  })

  it('with a budget of one runs one schedule and claims a sample', () => {
    const plan = strategies.auto.plan(spaceOf(plainShapes(10)), { seed: 'one', budget: 1 })
    expect([...plan.schedules]).toHaveLength(1)
    expect(plan.guarantee(1, true)).toEqual({ kind: 'sampled' })
  })

  it('explores every schedule of any space within the budget, covering rows first', () => {
    fc.assert(
      fc.property(shapesArbitrary(4, 3).filter((shapes) => multinomial(shapes) <= 2000), fc.string(), (shapes, seed) => {
        const plan = strategies.auto.plan(spaceOf(shapes), { seed, budget: multinomial(shapes) })
        const schedules = [...plan.schedules].map((schedule) => [...schedule])
        expect(schedules).toHaveLength(multinomial(shapes))
        expectValidDistinct(shapes, schedules)
        const rows = [...strategies.cover.plan(spaceOf(shapes), { seed, budget: DEFAULT_BUDGET }).schedules]
        expect(missingOrders(shapes, schedules.slice(0, rows.length), 3)).toEqual([])
        expect(plan.guarantee(schedules.length, true)).toEqual({ kind: 'exhaustive' })
      }),
      { numRuns: 40 },
    )
  })
})

describe('options and guarantees', () => {
  it('formats guarantees', () => {
    expect(formatGuarantee({ kind: 'exhaustive' })).toBe('exhaustive')
    expect(formatGuarantee({ kind: 't-way', strength: 3 })).toBe('t-way:3')
    expect(formatGuarantee({ kind: 'sampled' })).toBe('sampled')
  })

  it.each(['auto', 'exhaustive', 'random', 'pct', 'cover'] as const)('%s rejects a malformed budget', (name) => {
    expect(() => run(name, batched, { budget: -1 })).toThrow(/budget/)
    expect(() => run(name, batched, { budget: 2.5 })).toThrow(/budget/)
  })

  it.each(['auto', 'exhaustive', 'random', 'pct', 'cover'] as const)('%s plans nothing with a budget of zero', (name) => {
    expect(run(name, batched, { budget: 0 })).toEqual([])
  })

  it('every strategy is registered under its own name', () => {
    for (const [name, strategy] of Object.entries(strategies)) expect(strategy.name).toBe(name)
  })
})
