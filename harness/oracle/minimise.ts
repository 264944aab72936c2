import { scheduleKey } from '../space/space.ts'
import type { Schedule } from '../space/space.ts'

/**
 * Minimal counterexample: given a base schedule and a divergent one (their
 * outputs hash differently), find two schedules one adjacent swap apart whose
 * outputs still differ. The swapped pair is the blame pair: the two operations
 * whose relative order changes the output.
 *
 * The divergent schedule is bubble-sorted toward the base: each step swaps one
 * adjacent pair that the base orders the other way. Both schedules keep every
 * chain in order, so an inverted adjacent pair always spans two chains and
 * every step is itself a schedule. The walk has exactly as many steps as there
 * are inversions (at most n(n−1)/2); its ends hash differently, so some
 * consecutive pair does too, and bisection finds one in O(log path) runs.
 *
 * Given a prediction of the output (`predict`: in test mode, the order the
 * plugins apply in, by the apply structure), most steps of the path change
 * nothing predicted, and bisection probes only where the prediction changes:
 * O(log changes) runs, plus the two sides of the last change. The
 * prediction only chooses where to look: the blamed pair is always two
 * schedules that ran and hashed differently, and a probe that contradicts the
 * prediction sends the search back to plain halving.
 */

/** The result of {@link minimise}. */
export interface MinimalCounterexample {
  /** The base-side schedule of the pair. */
  readonly left: Schedule
  /** `left` with the blame pair swapped. */
  readonly right: Schedule
  readonly leftHash: string
  readonly rightHash: string
  /** The two swapped operations, in the order `left` runs them. */
  readonly blame: readonly [string, string]
  /** How many distinct schedules were run (`hashOf` calls). */
  readonly runs: number
}

/** Runs one schedule and returns the hash of its output. */
export type HashOf = (schedule: Schedule) => Promise<string>

/** A prediction of a schedule's output: schedules with the same prediction are expected to hash alike. */
export type Predict = (schedule: Schedule) => string

/**
 * The next index to run strictly between `low` and `high` (whose hashes
 * differ): where the prediction changes (`changes`: indices whose prediction
 * differs from the one before), the middle change when there are several,
 * the two ends of the only one in turn, and else the middle of the range.
 */
export function nextProbe(low: number, high: number, changes: readonly number[]): number {
  const inside = changes.filter(change => change > low && change <= high)
  if (inside.length === 1) {
    const change = inside[0]!
    return change - 1 > low ? change - 1 : change < high ? change : Math.floor((low + high) / 2)
  }
  const below = inside.filter(change => change < high)
  if (below.length > 0) return below[Math.floor(below.length / 2)]!
  return Math.floor((low + high) / 2)
}

/** The adjacent-transposition path from `base` (index 0) to `divergent` (last). */
export function transpositionPath(base: Schedule, divergent: Schedule): Schedule[] {
  const rank = new Map(base.map((op, index) => [op, index]))
  const sameOps = base.length === divergent.length && rank.size === base.length && divergent.every((op) => rank.has(op))
  if (!sameOps || new Set(divergent).size !== divergent.length) {
    throw new Error('minimise needs two orders of the same distinct operations')
  }
  const current = divergent.slice()
  const path: Schedule[] = [current.slice()]
  // Bubble sort by base rank; every swap removes exactly one inversion.
  for (let end = current.length - 1; end > 0; end--) {
    for (let i = 0; i < end; i++) {
      const a = current[i] as string
      const b = current[i + 1] as string
      if ((rank.get(a) as number) > (rank.get(b) as number)) {
        current[i] = b
        current[i + 1] = a
        path.push(current.slice())
      }
    }
  }
  return path.reverse()
}

/**
 * Shrinks a divergence to one adjacent swap. `hashOf(base)` and
 * `hashOf(divergent)` must differ; hashes are memoised per schedule within
 * the call, so at most ⌈log2(path length)⌉ + 2 schedules run without a
 * prediction, and with a right one (`predict`) at most ⌈log2(changes)⌉ + 4.
 */
export async function minimise(base: Schedule, divergent: Schedule, hashOf: HashOf, predict?: Predict): Promise<MinimalCounterexample> {
  const path = transpositionPath(base, divergent)
  const predicted = predict === undefined ? [] : path.map(predict)
  const changes = predicted.flatMap((key, index) => index > 0 && key !== predicted[index - 1] ? [index] : [])
  const memo = new Map<string, string>()
  const hashAt = async (index: number): Promise<string> => {
    const schedule = path[index] as Schedule
    const key = scheduleKey(schedule)
    const known = memo.get(key)
    if (known !== undefined) return known
    const hash = await hashOf(schedule)
    memo.set(key, hash)
    return hash
  }

  let low = 0
  let high = path.length - 1
  let lowHash = await hashAt(low)
  let highHash = await hashAt(high)
  if (lowHash === highHash) {
    throw new Error(`minimise needs schedules whose outputs differ; both hash to ${lowHash}`)
  }
  // Invariant: the outputs at `low` and `high` differ.
  while (high - low > 1) {
    const middle = nextProbe(low, high, changes)
    const middleHash = await hashAt(middle)
    if (middleHash !== lowHash) {
      high = middle
      highHash = middleHash
    } else {
      low = middle
      lowHash = middleHash
    }
  }

  const left = path[low] as Schedule
  const right = path[high] as Schedule
  const at = left.findIndex((op, index) => op !== right[index])
  return {
    left,
    right,
    leftHash: lowHash,
    rightHash: highHash,
    blame: [left[at] as string, left[at + 1] as string],
    runs: memo.size,
  }
}
