import type { Rng } from './random.ts'
import { flatten, MAX_TABLE_ENTRIES, OrderTable, UNCOVERED } from './order-table.ts'
import { opCount } from './space.ts'
import type { Schedule, Space } from './space.ts'

/**
 * Sequence covering sets: few schedules in which every relative order of every
 * t operations that the chains allow occurs at least once (Kuhn et al., NIST,
 * "sequence covering arrays", generalised to chains: orders that contradict a
 * chain can never occur and are not required).
 *
 * Strength 2 needs no search: running the chains one after another, then in
 * reverse chain order, puts every operation both before and after every
 * operation of every other chain.
 *
 * Higher strengths are built greedily, one operation at a time, by the method
 * of conditional expectations (as in density-style covering-array
 * construction): imagine the unplaced operations following in uniformly random
 * order; an uncovered order whose first j operations are already placed, in
 * order, is then realised with probability 1/(t−j)!. Each step places the
 * enabled operation that most increases the expected number of newly covered
 * orders (chains are ignored in this estimate; it only guides the choice).
 * Scores are kept per operation and updated incrementally as operations are
 * placed. A few seeded candidates compete for each row, and every row is
 * forced to realise one chosen uncovered order, so each row makes progress and
 * the construction ends. Rows that turn out redundant are dropped at the end.
 *
 * When every chain has a single operation, the reverse of a schedule is a
 * schedule too, and rows come in pairs (π, reverse π) covering each order
 * together with its mirror image; for t = 3 the pairs then only have to make
 * every operation of every triple the middle one in some π.
 */

/** Rough bound on inner-loop steps spent on the candidates for one row. */
const CANDIDATE_WORK = 200_000
const MAX_CANDIDATES = 4

function factorial(k: number): number {
  return k <= 1 ? 1 : k * factorial(k - 1)
}

/**
 * Score weights, scaled by t! to stay integral. For an uncovered order with
 * m operations unplaced, placing one of them changes the order's probability
 * by `lead[m]` when it is the order's next operation and by `trail[m]` otherwise.
 */
interface Weights {
  readonly lead: readonly number[]
  readonly trail: readonly number[]
}

function weightsFor(t: number): Weights {
  const lead = [0]
  const trail = [0]
  for (let m = 1; m <= t; m++) {
    lead.push(factorial(t) / factorial(m - 1) - factorial(t) / factorial(m))
    trail.push(-factorial(t) / factorial(m))
  }
  return { lead, trail }
}

/** Every operation's score with nothing placed yet. */
function initialScores(table: OrderTable, weights: Weights): Float64Array {
  const { n, t, cells } = table
  const scores = new Float64Array(n)
  const tuple = new Int32Array(t)
  for (let index = 0; index < cells.length; index++) {
    if (cells[index] !== UNCOVERED) continue
    table.decode(index, tuple)
    for (let p = 0; p < t; p++) scores[tuple[p] as number] += p === 0 ? (weights.lead[t] as number) : (weights.trail[t] as number)
  }
  return scores
}

/** One candidate row under construction. */
class RowGrowth {
  readonly prefix: number[] = []
  private unplaced: number[]
  private readonly scores: Float64Array
  private readonly tail: Int32Array
  private readonly inTail: Uint8Array

  constructor(private readonly table: OrderTable, private readonly weights: Weights, scores: Float64Array) {
    this.scores = scores.slice()
    this.unplaced = Array.from({ length: table.n }, (_, i) => i)
    this.tail = new Int32Array(table.t)
    this.inTail = new Uint8Array(table.n)
  }

  score(op: number): number {
    return this.scores[op] as number
  }

  /** Appends `x` and updates the scores of every operation sharing a live uncovered order with it. */
  place(x: number): void {
    for (let placed = 0; placed <= this.table.t - 2; placed++) this.placedPart(0, 0, placed, 0, x)
    this.prefix.push(x)
    this.unplaced = this.unplaced.filter((op) => op !== x)
  }

  /** Chooses the `want` already-placed leading operations of an order, in row order. */
  private placedPart(from: number, depth: number, want: number, index: number, x: number): void {
    if (depth === want) {
      const m = this.table.t - want
      for (let slot = 0; slot < m; slot++) this.unplacedPart(index, m, slot, 0, x)
      return
    }
    const { prefix } = this
    const n = this.table.n
    for (let i = from; i <= prefix.length - (want - depth); i++) {
      this.placedPart(i + 1, depth + 1, want, index * n + (prefix[i] as number), x)
    }
  }

  /** Fills the order's m unplaced operations, with `x` at position `slot`. */
  private unplacedPart(index: number, m: number, slot: number, depth: number, x: number): void {
    const n = this.table.n
    if (depth === m) return this.settle(index, m, slot)
    if (depth === slot) {
      this.tail[depth] = x
      return this.unplacedPart(index * n + x, m, slot, depth + 1, x)
    }
    for (const op of this.unplaced) {
      if (op === x || this.inTail[op] === 1) continue
      this.inTail[op] = 1
      this.tail[depth] = op
      this.unplacedPart(index * n + op, m, slot, depth + 1, x)
      this.inTail[op] = 0
    }
  }

  /** The order at `index` loses its placed-next operation (slot 0) or dies (any other slot). */
  private settle(index: number, m: number, slot: number): void {
    if (this.table.cells[index] !== UNCOVERED) return
    const { lead, trail } = this.weights
    for (let p = 0; p < m; p++) {
      if (p === slot) continue
      const op = this.tail[p] as number
      const before = p === 0 ? (lead[m] as number) : (trail[m] as number)
      const after = slot !== 0 ? 0 : p === 1 ? (lead[m - 1] as number) : (trail[m - 1] as number)
      this.scores[op] += after - before
    }
  }
}

/** Grows one row realising `target` (an uncovered order), always placing the best-scoring enabled operation. */
function growRow(table: OrderTable, weights: Weights, scores: Float64Array, target: Int32Array, rng: Rng): number[] {
  const { flat } = table
  const targetSlot = new Int32Array(table.n).fill(-1)
  target.forEach((op, slot) => { targetSlot[op] = slot })
  let nextSlot = 0
  const nextRank = flat.chainLength.map(() => 0)
  const row = new RowGrowth(table, weights, scores)
  for (let step = 0; step < table.n; step++) {
    let chosen = -1
    let best = -Infinity
    let ties = 0
    for (let chain = 0; chain < flat.chainLength.length; chain++) {
      const rank = nextRank[chain] as number
      if (rank >= (flat.chainLength[chain] as number)) continue
      const op = (flat.chainStart[chain] as number) + rank
      const slot = targetSlot[op] as number
      if (slot !== -1 && slot !== nextSlot) continue // the target's earlier operations go first
      const score = row.score(op)
      if (score > best) {
        chosen = op
        best = score
        ties = 1
      } else if (score === best && rng.int(++ties) === 0) {
        chosen = op
      }
    }
    // The target's earliest unplaced operation is always enabled, so an operation was chosen.
    if (targetSlot[chosen] === nextSlot) nextSlot++
    nextRank[flat.chainOf[chosen] as number]++
    row.place(chosen)
  }
  return row.prefix
}

/** The chains run whole, in declaration order and then in reverse declaration order: a complete 2-way set. */
function blockOrders(space: Space): Schedule[] {
  const forward = space.chains.flatMap((chain) => chain.ops)
  if (space.chains.length < 2) return [forward]
  return [forward, space.chains.slice().reverse().flatMap((chain) => chain.ops)]
}

/** How many candidates compete per row, from a rough per-candidate cost of t·N^t steps. */
function candidateCount(n: number, t: number): number {
  return Math.max(1, Math.min(MAX_CANDIDATES, Math.floor(CANDIDATE_WORK / (t * n ** t))))
}

/** Whether a `strength`-way covering set of `space` is small enough to build. */
export function coverFits(space: Space, strength: number): boolean {
  const n = opCount(space)
  const t = Math.min(strength, n)
  return t <= 2 || n ** t <= MAX_TABLE_ENTRIES
}

/**
 * A set of schedules of `space` covering every chain-consistent order of every
 * `strength` operations (a strength above the operation count asks for every
 * order of all of them). Deterministic for (space, strength, rng state).
 */
export function coveringSchedules(space: Space, strength: number, rng: Rng): Schedule[] {
  if (!Number.isSafeInteger(strength) || strength < 1) {
    throw new RangeError(`cover strength must be a whole number ≥ 1, got ${strength}`)
  }
  const flat = flatten(space)
  const t = Math.min(strength, flat.ops.length)
  if (t <= 1) return [flat.ops] // one schedule holds every single operation
  if (t === 2) return blockOrders(space)
  const table = new OrderTable(flat, t)
  const weights = weightsFor(t)
  const paired = flat.chainLength.every((length) => length === 1)
  const candidates = candidateCount(table.n, t)
  const rows: number[][] = []
  const emit = (row: number[]): void => {
    table.cover(row)
    rows.push(row)
  }
  while (table.uncovered > 0) {
    const target = table.pickUncovered(rng)
    const scores = initialScores(table, weights)
    let best = growRow(table, weights, scores, target, rng)
    let bestGain = table.countNew(best)
    for (let k = 1; k < candidates; k++) {
      const candidate = growRow(table, weights, scores, target, rng)
      const gain = table.countNew(candidate)
      if (gain > bestGain) {
        best = candidate
        bestGain = gain
      }
    }
    emit(best)
    if (paired) emit(best.slice().reverse())
  }
  const kept = withoutRedundantRows(table, rows, paired ? 2 : 1)
  return kept.map((row) => row.map((op) => flat.ops[op] as string))
}

/**
 * Drops rows (or whole (π, reverse π) pairs, `group` = 2) whose every order is
 * also realised by another kept row, latest rows first.
 */
function withoutRedundantRows(table: OrderTable, rows: readonly number[][], group: number): number[][] {
  const counts = new Uint16Array(table.cells.length)
  for (const row of rows) table.forEachOrder(row, (index) => { counts[index]++ })
  const kept = rows.map(() => true)
  for (let start = rows.length - group; start >= 0; start -= group) {
    const members = rows.slice(start, start + group)
    let redundant = true
    const seen = new Map<number, number>()
    for (const row of members) table.forEachOrder(row, (index) => { seen.set(index, (seen.get(index) ?? 0) + 1) })
    for (const [index, times] of seen) if ((counts[index] as number) <= times) redundant = false
    if (!redundant) continue
    for (const [index, times] of seen) counts[index] -= times
    for (let i = start; i < start + group; i++) kept[i] = false
  }
  return rows.filter((_, i) => kept[i])
}
