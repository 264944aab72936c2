import { coverFits } from './covering.ts'
import { COVERED, flatten, OrderTable, UNCOVERED } from './order-table.ts'
import type { Schedule, Space } from './space.ts'

/**
 * Which relative orders of every t operations the runs actually realised,
 * among those the system allows.
 *
 * A covering plan is built over the space's chains, but the system decides
 * what really happens: an operation it is not ready for (a plugin's second
 * batch before the service it registers into exists) goes later. So a
 * `t-way:t` claim is checked on the effective orders themselves. Orders the
 * system never made possible do not count against it: an operation that, in
 * every run, was only requested after some other operation had been released
 * is taken to depend on it (as dynamic partial-order reduction learns its
 * dependencies from runs), and orders putting it first are not required.
 */
export class RealisedOrders {
  private readonly table: OrderTable
  private readonly index: Map<string, number>
  /** For each operation (flat index), what it was requested after in every run that reached it. */
  private readonly after = new Map<number, Set<number>>()

  private constructor(space: Space, readonly strength: number) {
    const flat = flatten(space)
    this.table = new OrderTable(flat, Math.min(strength, flat.ops.length))
    this.index = new Map(flat.ops.map((op, i) => [op, i]))
  }

  /** Tracking for `space` at `strength`, or undefined when its order table is too large to build. */
  static of(space: Space, strength: number): RealisedOrders | undefined {
    return coverFits(space, strength) ? new RealisedOrders(space, strength) : undefined
  }

  /**
   * Counts the orders an effective schedule realised and narrows what each
   * operation depends on; `enabledAt[i]` is how many operations of the
   * schedule had been released when operation i was requested. Operations
   * outside the space are ignored.
   */
  add(schedule: Schedule, enabledAt: readonly number[]): void {
    const flat = schedule.map(op => this.index.get(op))
    flat.forEach((at, position) => {
      if (at === undefined) return
      const before = flat.slice(0, enabledAt[position] ?? 0).filter((other): other is number => other !== undefined)
      this.narrow(at, new Set(before))
    })
    this.table.cover(flat.filter((at): at is number => at !== undefined))
  }

  private narrow(op: number, requestedAfter: Set<number>): void {
    const known = this.after.get(op)
    if (known === undefined) {
      this.after.set(op, requestedAfter)
      return
    }
    for (const other of known) if (!requestedAfter.has(other)) known.delete(other)
  }

  /** Whether the order `tuple` puts an operation before one it depends on. */
  private forbidden(tuple: Int32Array): boolean {
    for (let i = 0; i < tuple.length; i++) {
      const needs = this.after.get(tuple[i] as number)
      if (needs === undefined) continue
      for (let j = i + 1; j < tuple.length; j++) if (needs.has(tuple[j] as number)) return true
    }
    return false
  }

  /** Realised orders, and all orders the chains and the observed dependencies allow. */
  counts(): { realised: number, total: number } {
    const { cells } = this.table
    const tuple = new Int32Array(this.table.t)
    let realised = 0
    let open = 0
    for (let index = 0; index < cells.length; index++) {
      if (cells[index] === UNCOVERED) {
        this.table.decode(index, tuple)
        if (!this.forbidden(tuple)) open++
      } else if (cells[index] === COVERED) {
        realised++
      }
    }
    return { realised, total: realised + open }
  }

  /** Whether every allowed t-order occurred. */
  complete(): boolean {
    const { realised, total } = this.counts()
    return realised === total
  }
}
