import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { minimise, transpositionPath } from '../../../harness/oracle/minimise.ts'
import type { HashOf } from '../../../harness/oracle/minimise.ts'
import { createRng } from '../../../harness/space/random.ts'
import type { Schedule } from '../../../harness/space/space.ts'
import { spaceOf } from '../../../harness/space/space.ts'
import { uniformSchedule } from '../../../harness/strategies/random.ts'
import { labelParts, plainShapes, shapesArbitrary, validSchedule } from '../../support/schedule-shapes.ts'
import type { Shape } from '../../support/schedule-shapes.ts'

/** Pairs that `schedule` orders the other way from `base`. */
function inversions(base: Schedule, schedule: Schedule): number {
  const rank = new Map(base.map((op, index) => [op, index]))
  let count = 0
  for (let i = 0; i < schedule.length; i++) {
    for (let j = i + 1; j < schedule.length; j++) {
      if ((rank.get(schedule[i] as string) as number) > (rank.get(schedule[j] as string) as number)) count++
    }
  }
  return count
}

/** The two positions where `left` and `right` differ, if they are exactly one adjacent swap apart. */
function adjacentSwap(left: Schedule, right: Schedule): [string, string] | undefined {
  const differ = left.flatMap((op, index) => (op === right[index] ? [] : [index]))
  if (differ.length !== 2) return undefined
  const [i, j] = differ as [number, number]
  if (j !== i + 1 || left[i] !== right[j] || left[j] !== right[i]) return undefined
  return [left[i] as string, left[j] as string]
}

/** A counting, synthetic `hashOf` whose output depends on the relative order of `ops` only. */
function orderOf(ops: readonly string[]): HashOf & { calls: string[] } {
  const calls: string[] = []
  const hashOf = async (schedule: Schedule): Promise<string> => {
    calls.push(schedule.join(','))
    return ops.slice().sort((a, b) => schedule.indexOf(a) - schedule.indexOf(b)).join('<')
  }
  return Object.assign(hashOf, { calls })
}

function hashSync(ops: readonly string[], schedule: Schedule): string {
  return ops.slice().sort((a, b) => schedule.indexOf(a) - schedule.indexOf(b)).join('<')
}

async function expectMinimal(base: Schedule, divergent: Schedule, ops: readonly string[], predict?: (schedule: Schedule) => string): Promise<void> {
  const hashOf = orderOf(ops)
  const result = await minimise(base, divergent, hashOf, predict)
  const swapped = adjacentSwap(result.left, result.right)
  expect(swapped).toEqual(result.blame)
  expect(result.leftHash).toBe(hashSync(ops, result.left))
  expect(result.rightHash).toBe(hashSync(ops, result.right))
  expect(result.leftHash).not.toBe(result.rightHash)
  // The blame pair is two of the operations the output depends on, ordered as the base orders them.
  expect(ops).toContain(result.blame[0])
  expect(ops).toContain(result.blame[1])
  expect(base.indexOf(result.blame[0])).toBeLessThan(base.indexOf(result.blame[1]))
  // Every schedule ran at most once, and bisection stayed logarithmic.
  expect(new Set(hashOf.calls).size).toBe(hashOf.calls.length)
  expect(result.runs).toBe(hashOf.calls.length)
  const steps = inversions(base, divergent)
  if (predict === undefined) expect(result.runs).toBeLessThanOrEqual(Math.ceil(Math.log2(steps)) + 2)
}

/** How many steps of the path from `base` to `divergent` change `predict`'s key. */
function changesOf(base: Schedule, divergent: Schedule, predict: (schedule: Schedule) => string): number {
  const keys = transpositionPath(base, divergent).map(predict)
  return keys.filter((key, index) => index > 0 && key !== keys[index - 1]).length
}

const permutation = (n: number) => fc.shuffledSubarray(plainShapes(n).map((shape) => shape.id), { minLength: n, maxLength: n })

describe('minimise', () => {
  it('blames the pair whose relative order the output depends on', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 12 }).chain((n) => fc.tuple(permutation(n), permutation(n))), async ([base, divergent]) => {
        const ops = [base[0] as string, base[base.length - 1] as string]
        fc.pre(hashSync(ops, base) !== hashSync(ops, divergent))
        await expectMinimal(base, divergent, ops)
      }),
      { numRuns: 150 },
    )
  })

  it('finds one of the pairs when the output depends on the order of three operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 3, max: 12 }).chain((n) => fc.tuple(permutation(n), permutation(n), fc.shuffledSubarray(plainShapes(n).map((s) => s.id), { minLength: 3, maxLength: 3 }))), async ([base, divergent, ops]) => {
        fc.pre(hashSync(ops, base) !== hashSync(ops, divergent))
        await expectMinimal(base, divergent, ops)
      }),
      { numRuns: 150 },
    )
  })

  it('walks all the way when only the full reversal differs', async () => {
    const base = plainShapes(9).map((shape) => shape.id)
    const reversed = base.slice().reverse()
    const calls: string[] = []
    const hashOf: HashOf = async (schedule) => {
      calls.push(schedule.join(','))
      return schedule.join(',') === reversed.join(',') ? 'reversed' : 'other'
    }
    const result = await minimise(base, reversed, hashOf)
    expect(result.right).toEqual(reversed)
    expect(result.rightHash).toBe('reversed')
    expect(result.leftHash).toBe('other')
    const swapped = adjacentSwap(result.left, result.right)
    expect(swapped).toEqual(result.blame)
    expect(base.indexOf(result.blame[0])).toBeLessThan(base.indexOf(result.blame[1]))
    expect(result.runs).toBe(calls.length)
    expect(result.runs).toBeLessThanOrEqual(Math.ceil(Math.log2(36)) + 2)
  })

  it('with a right prediction, probes only where it changes: at most ⌈log2(changes)⌉ + 4 runs (the two ends, and both sides of the last change), the pair still minimal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 3, max: 12 }).chain((n) => fc.tuple(permutation(n), permutation(n), fc.shuffledSubarray(plainShapes(n).map((s) => s.id), { minLength: 2, maxLength: 3 }))), async ([base, divergent, ops]) => {
        fc.pre(hashSync(ops, base) !== hashSync(ops, divergent))
        const predict = (schedule: Schedule) => hashSync(ops, schedule)
        await expectMinimal(base, divergent, ops, predict)
        const result = await minimise(base, divergent, orderOf(ops), predict)
        expect(result.runs).toBeLessThanOrEqual(Math.ceil(Math.log2(changesOf(base, divergent, predict))) + 4)
      }),
      { numRuns: 150 },
    )
  })

  it('with a prediction, a long path to one change takes four runs (its ends and both sides of the change) where halving takes eight', async () => {
    const base = plainShapes(12).map((shape) => shape.id)
    const reversed = base.slice().reverse()
    const ops = [base[0] as string, base[11] as string]
    const predict = (schedule: Schedule) => hashSync(ops, schedule)
    expect(changesOf(base, reversed, predict)).toBe(1)
    expect((await minimise(base, reversed, orderOf(ops), predict)).runs).toBe(4)
    expect((await minimise(base, reversed, orderOf(ops))).runs).toBe(8)
  })

  it('with a wrong prediction, still blames a minimal pair, each schedule run once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 12 }).chain((n) => fc.tuple(permutation(n), permutation(n), fc.integer({ min: 1, max: 4 }))), async ([base, divergent, classes]) => {
        const ops = [base[0] as string, base[base.length - 1] as string]
        fc.pre(hashSync(ops, base) !== hashSync(ops, divergent))
        // Keyed by where the first operation of the divergent schedule sits: unrelated to the output.
        await expectMinimal(base, divergent, ops, (schedule) => String(schedule.indexOf(divergent[0] as string) % classes))
      }),
      { numRuns: 150 },
    )
  })

  it('keeps every step of the path a valid schedule when plugins have batches', () => {
    fc.assert(
      fc.property(shapesArbitrary(5, 3), fc.string(), fc.string(), (shapes: Shape[], seedA, seedB) => {
        const space = spaceOf(shapes)
        const base = uniformSchedule(space, createRng(seedA))
        const divergent = uniformSchedule(space, createRng(seedB))
        const path = transpositionPath(base, divergent)
        expect(path[0]).toEqual(base)
        expect(path[path.length - 1]).toEqual(divergent)
        expect(path).toHaveLength(inversions(base, divergent) + 1)
        for (let i = 0; i + 1 < path.length; i++) {
          const swapped = adjacentSwap(path[i] as Schedule, path[i + 1] as Schedule)
          expect(swapped).toBeDefined()
          const [a, b] = swapped as [string, string]
          expect(labelParts(a).plugin).not.toBe(labelParts(b).plugin)
          expect(validSchedule(shapes, path[i + 1] as Schedule)).toBe(true)
        }
      }),
      { numRuns: 100 },
    )
  })

  it('shrinks a batch-order divergence to the blamed batch', async () => {
    const base = ['tool-fs', 'tool-fs#2', 'tool-todo', 'tool-subagent', 'tool-subagent#2']
    const divergent = ['tool-subagent', 'tool-todo', 'tool-subagent#2', 'tool-fs', 'tool-fs#2']
    await expectMinimal(base, divergent, ['tool-fs#2', 'tool-subagent#2'])
  })

  it('refuses schedules whose outputs agree, or that are not orders of the same operations', async () => {
    const same: HashOf = async () => 'h'
    await expect(minimise(['a', 'b'], ['b', 'a'], same)).rejects.toThrow(/outputs differ/)
    await expect(minimise(['a', 'b'], ['a', 'c'], same)).rejects.toThrow(/same distinct operations/)
    await expect(minimise(['a', 'b'], ['a', 'a'], same)).rejects.toThrow(/same distinct operations/)
  })
})
