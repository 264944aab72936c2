import { achievable, type ApplyStructure } from './applies.ts'
import { MAX_TABLE_ENTRIES, OrderTable, UNCOVERED, COVERED, flatten } from './order-table.ts'

/**
 * Which relative orders of every t units of an apply structure have been
 * seen, among those the load order can give (`applies.ts`): what a plan
 * over applies covers, and what its guarantee, `applies:t`, is checked
 * against. An order is owed only when every two of its units can apply in
 * that relative order.
 */
export class ApplyOrders {
  private readonly table: OrderTable

  private constructor(structure: ApplyStructure, readonly strength: number) {
    const can = achievable(structure)
    const space = { chains: structure.units.map(unit => ({ plugin: unit.unit, ops: [unit.unit] })) }
    this.table = new OrderTable(flatten(space), Math.min(strength, Math.max(1, structure.units.length)), (tuple) => {
      for (let i = 0; i < tuple.length; i++) for (let j = i + 1; j < tuple.length; j++) if (!can(tuple[i]!, tuple[j]!)) return false
      return true
    })
  }

  /** Tracking for `structure` at `strength`, or undefined when its table is too large to build. */
  static of(structure: ApplyStructure, strength: number): ApplyOrders | undefined {
    if (structure.units.length ** Math.min(strength, structure.units.length) > MAX_TABLE_ENTRIES) return undefined
    return new ApplyOrders(structure, strength)
  }

  /** How many owed orders `order` (unit indices, as they applied) would newly show. */
  countNew(order: readonly number[]): number {
    return this.table.countNew(order)
  }

  /** Marks the orders `order` shows as seen. */
  add(order: readonly number[]): void {
    this.table.cover(order)
  }

  /** Seen and owed orders in all. */
  counts(): { realised: number, total: number } {
    let realised = 0
    let total = 0
    for (const cell of this.table.cells) {
      if (cell === COVERED) realised++
      if (cell === COVERED || cell === UNCOVERED) total++
    }
    return { realised, total }
  }

  /** Whether every owed order has been seen. */
  complete(): boolean {
    return this.table.uncovered === 0
  }
}

/** The reverses of ties still to show: for each tie a run showed, its reverse, where the load order can give it. */
export class TieReversals {
  /** Each open reverse as [unit that must apply first, unit that must apply after]. */
  private open: (readonly [number, number])[] = []

  constructor(structure: ApplyStructure) {
    const index = new Map(structure.units.map((unit, i) => [unit.unit, i]))
    const can = achievable(structure)
    const seen = new Set<string>()
    for (const tie of structure.ties) {
      const [first, second] = tie.split('>').map(unit => index.get(unit!)) as [number | undefined, number | undefined]
      if (first === undefined || second === undefined || !can(second, first) || seen.has(`${second}>${first}`)) continue
      seen.add(`${second}>${first}`)
      this.open.push([second, first])
    }
  }

  get size(): number {
    return this.open.length
  }

  /** Positions of `order`'s units (unit index → position; -1 for a unit it leaves out). */
  private positions(order: readonly number[]): Int32Array {
    let most = 0
    for (const unit of order) if (unit > most) most = unit
    for (const [a, b] of this.open) most = Math.max(most, a, b)
    const at = new Int32Array(most + 1).fill(-1)
    order.forEach((unit, position) => { at[unit] = position })
    return at
  }

  /** How many open reverses `order` (unit indices, as they apply) shows. */
  count(order: readonly number[]): number {
    if (this.open.length === 0) return 0
    const at = this.positions(order)
    let found = 0
    for (const [a, b] of this.open) if (at[a]! >= 0 && at[b]! >= 0 && at[a]! < at[b]!) found++
    return found
  }

  /** Marks the reverses `order` shows as shown. */
  add(order: readonly number[]): void {
    const at = this.positions(order)
    this.open = this.open.filter(([a, b]) => !(at[a]! >= 0 && at[b]! >= 0 && at[a]! < at[b]!))
  }
}
