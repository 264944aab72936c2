import type { Rng } from './random.ts'
import type { Space } from './space.ts'

/**
 * Bookkeeping for sequence covering: which relative orders of t operations are
 * still to be covered. Operations are numbered by their flat position in the
 * space (chains in declaration order); an ordered tuple (o1, …, ot) lives at
 * index Σ o_j · N^(t−j).
 */

/** Beyond this many table entries (N^t) a strength is refused. */
export const MAX_TABLE_ENTRIES = 1 << 24

/** Cell states. `IMPOSSIBLE`: a repeated operation, or an order a chain forbids (never required). */
export const UNCOVERED = 0
export const COVERED = 1
const IMPOSSIBLE = 2

/** The operations of a space, flattened in declaration order with their chain positions. */
export interface FlatSpace {
  readonly ops: readonly string[]
  readonly chainOf: Int32Array
  readonly rankOf: Int32Array
  /** Flat index of each chain's first operation. */
  readonly chainStart: readonly number[]
  readonly chainLength: readonly number[]
}

/** Numbers the operations of `space`. */
export function flatten(space: Space): FlatSpace {
  const ops: string[] = []
  const chainOf: number[] = []
  const rankOf: number[] = []
  const chainStart: number[] = []
  space.chains.forEach((chain, index) => {
    chainStart.push(ops.length)
    chain.ops.forEach((op, rank) => {
      ops.push(op)
      chainOf.push(index)
      rankOf.push(rank)
    })
  })
  return {
    ops,
    chainOf: Int32Array.from(chainOf),
    rankOf: Int32Array.from(rankOf),
    chainStart,
    chainLength: space.chains.map((chain) => chain.ops.length),
  }
}

/** The still-uncovered t-orders of a flattened space. */
export class OrderTable {
  readonly cells: Uint8Array
  readonly n: number
  uncovered = 0

  /**
   * @param allowed further orders that can never occur and are not required
   *   (beyond the chains'): false for such a tuple
   */
  constructor(readonly flat: FlatSpace, readonly t: number, allowed?: (tuple: Int32Array) => boolean) {
    this.n = flat.ops.length
    const entries = this.n ** t
    if (entries > MAX_TABLE_ENTRIES) {
      throw new RangeError(`a ${t}-way cover of ${this.n} operations is too large to build (strength too high)`)
    }
    this.cells = new Uint8Array(entries)
    const tuple = new Int32Array(t)
    for (let index = 0; index < entries; index++) {
      this.decode(index, tuple)
      if (this.feasible(tuple) && (allowed?.(tuple) ?? true)) this.uncovered++
      else this.cells[index] = IMPOSSIBLE
    }
  }

  /** Writes the operations of table index `index` into `tuple`. */
  decode(index: number, tuple: Int32Array): void {
    let rest = index
    for (let j = this.t - 1; j >= 0; j--) {
      tuple[j] = rest % this.n
      rest = Math.floor(rest / this.n)
    }
  }

  /** Distinct operations whose order agrees with their chains. */
  private feasible(tuple: Int32Array): boolean {
    const { chainOf, rankOf } = this.flat
    for (let i = 0; i < tuple.length; i++) {
      for (let j = i + 1; j < tuple.length; j++) {
        const a = tuple[i] as number
        const b = tuple[j] as number
        if (chainOf[a] === chainOf[b] && (rankOf[a] as number) >= (rankOf[b] as number)) return false
      }
    }
    return true
  }

  /** Some uncovered order, searched from a random start. */
  pickUncovered(rng: Rng): Int32Array {
    const entries = this.cells.length
    const start = rng.int(entries)
    for (let step = 0; step < entries; step++) {
      const index = (start + step) % entries
      if (this.cells[index] !== UNCOVERED) continue
      const tuple = new Int32Array(this.t)
      this.decode(index, tuple)
      return tuple
    }
    throw new Error('no uncovered order left')
  }

  /** How many t-orders of `row` (a full schedule of flat indices) are still uncovered. */
  countNew(row: readonly number[]): number {
    let fresh = 0
    this.forEachOrder(row, (index) => {
      if (this.cells[index] === UNCOVERED) fresh++
    })
    return fresh
  }

  /** Marks every t-order of `row` as covered. */
  cover(row: readonly number[]): void {
    this.forEachOrder(row, (index) => {
      if (this.cells[index] === UNCOVERED) {
        this.cells[index] = COVERED
        this.uncovered--
      }
    })
  }

  /** Calls `visitIndex` with the table index of every t-order that `row` realises. */
  forEachOrder(row: readonly number[], visitIndex: (index: number) => void): void {
    const { n, t } = this
    const visit = (from: number, depth: number, index: number): void => {
      if (depth === t) return visitIndex(index)
      for (let i = from; i <= row.length - (t - depth); i++) visit(i + 1, depth + 1, index * n + (row[i] as number))
    }
    visit(0, 0, 0)
  }
}
