import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRng } from '../../../harness/space/random.ts'
import { coveringSchedules } from '../../../harness/space/covering.ts'
import { spaceOf } from '../../../harness/space/space.ts'
import { strategies } from '../../../harness/strategies/index.ts'
import { missingOrders, multinomial, plainShapes, shapesArbitrary, validSchedule } from '../../support/schedule-shapes.ts'
import type { Shape } from '../../support/schedule-shapes.ts'

function rowsFor(shapes: Shape[], t: number, seed = 'cover-spec'): string[][] {
  const plan = strategies.cover.plan(spaceOf(shapes), { seed, budget: Infinity, strength: t })
  return [...plan.schedules].map((row) => [...row])
}

function expectValidDistinct(shapes: Shape[], rows: string[][]): void {
  expect(rows.every((row) => validSchedule(shapes, row))).toBe(true)
  expect(new Set(rows.map((row) => row.join(','))).size).toBe(rows.length)
}

describe('cover: single-batch plugins', () => {
  for (const t of [2, 3]) {
    for (let n = 3; n <= 12; n++) {
      it(`n = ${n}, t = ${t}: every t-subset occurs in every order`, () => {
        const shapes = plainShapes(n)
        const rows = rowsFor(shapes, t)
        expectValidDistinct(shapes, rows)
        expect(missingOrders(shapes, rows, t)).toEqual([])
        if (n > t) expect(rows.length).toBeLessThan(multinomial(shapes))
      })
    }
  }

  it('t = 2 is one schedule and its reverse', () => {
    for (let n = 2; n <= 16; n++) {
      const rows = rowsFor(plainShapes(n), 2)
      expect(rows).toHaveLength(2)
      expect(rows[1]).toEqual([...(rows[0] as string[])].reverse())
    }
  })

  it('t = 3 rows come as (π, reverse π) pairs', () => {
    const rows = rowsFor(plainShapes(9), 3)
    expect(rows.length % 2).toBe(0)
    for (let i = 0; i < rows.length; i += 2) expect(rows[i + 1]).toEqual([...(rows[i] as string[])].reverse())
  })

  it.each(['alpha', 'beta', 'gamma', 'delta'])('meets the t = 3 size targets (seed %s)', (seed) => {
    expect(rowsFor(plainShapes(10), 3, seed).length).toBeLessThanOrEqual(16)
    const sixteen = rowsFor(plainShapes(16), 3, seed)
    expect(sixteen.length).toBeLessThanOrEqual(24)
    expect(missingOrders(plainShapes(16), sixteen, 3)).toEqual([])
  })

  it('is deterministic for a seed and varies with it', () => {
    expect(rowsFor(plainShapes(10), 3, 'one')).toEqual(rowsFor(plainShapes(10), 3, 'one'))
    expect(rowsFor(plainShapes(10), 3, 'one')).not.toEqual(rowsFor(plainShapes(10), 3, 'two'))
  })
})

describe('cover: plugins with batches', () => {
  const mixed: Shape[] = [
    { id: 'tool-fs', batches: 3 },
    { id: 'tool-todo', batches: 1 },
    { id: 'tool-subagent', batches: 2 },
    { id: 'tool-web', batches: 1 },
  ]

  for (const t of [2, 3]) {
    it(`t = ${t}: every order the batches allow is covered`, () => {
      const rows = rowsFor(mixed, t)
      expectValidDistinct(mixed, rows)
      expect(missingOrders(mixed, rows, t)).toEqual([])
    })
  }

  it('t = 2 needs only two schedules: the plugins in order, then in reverse order', () => {
    expect(rowsFor(mixed, 2)).toEqual([
      ['tool-fs', 'tool-fs#2', 'tool-fs#3', 'tool-todo', 'tool-subagent', 'tool-subagent#2', 'tool-web'],
      ['tool-web', 'tool-subagent', 'tool-subagent#2', 'tool-todo', 'tool-fs', 'tool-fs#2', 'tool-fs#3'],
    ])
  })

  it('covers every feasible t-order of random spaces (t = 2, 3, 4)', () => {
    fc.assert(
      fc.property(shapesArbitrary(5, 3), fc.integer({ min: 2, max: 4 }), fc.string(), (shapes, t, seed) => {
        const rows = coveringSchedules(spaceOf(shapes), t, createRng(seed))
        expectValidDistinct(shapes, rows.map((row) => [...row]))
        expect(missingOrders(shapes, rows, t)).toEqual([])
      }),
      { numRuns: 60 },
    )
  })

  it('a strength above the operation count asks for the whole space', () => {
    const shapes: Shape[] = [{ id: 'a', batches: 2 }, { id: 'b', batches: 1 }]
    const rows = rowsFor(shapes, 5)
    expect(rows).toHaveLength(multinomial(shapes))
    const plan = strategies.cover.plan(spaceOf(shapes), { seed: 's', budget: 100, strength: 5 })
    expect(plan.guarantee(rows.length, true)).toEqual({ kind: 'exhaustive' })
  })
})

describe('cover: plan', () => {
  it('claims t-way only once every row ran, and never beyond the budget', () => {
    const space = spaceOf(plainShapes(8))
    const full = strategies.cover.plan(space, { seed: 's', budget: 1000 })
    const rows = [...full.schedules]
    expect(full.guarantee(rows.length, true)).toEqual({ kind: 't-way', strength: 3 })
    expect(full.guarantee(rows.length - 1, false)).toEqual({ kind: 'sampled' })

    const cut = strategies.cover.plan(space, { seed: 's', budget: 5 })
    expect([...cut.schedules]).toEqual(rows.slice(0, 5))
    expect(cut.guarantee(5, true)).toEqual({ kind: 'sampled' })
  })

  it('rejects a strength that is not a whole number ≥ 1', () => {
    const space = spaceOf(plainShapes(4))
    expect(() => strategies.cover.plan(space, { seed: 's', budget: 10, strength: 0 })).toThrow(/strength/)
    expect(() => strategies.cover.plan(space, { seed: 's', budget: 10, strength: 2.5 })).toThrow(/strength/)
  })
})
