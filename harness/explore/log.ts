import { scheduleKey, type Schedule, type Space } from '../space/space.ts'
import { deviation } from '../space/discovered.ts'
import type { RealisedOrders } from '../space/coverage.ts'
import { realisedIn } from './guarantee.ts'
import { ApplyOrders } from '../space/apply-orders.ts'
import { realisedApplies } from '../space/applies.ts'
import type { InterleavingRecord } from '../runners/runner.ts'
import type { Deviation, Exploration, OutputGroup } from './exploration.ts'
import { formatOrderKey } from './order-key.ts'

/** Bookkeeping over the runs of one exploration: outputs, distinct effective orders, deviations and realised t-orders. */
export class ExplorationLog {
  readonly groups = new Map<string, OutputGroup>()
  /** Distinct effective orders (by schedule key), when each of their operations was requested, and the applies they showed. */
  private readonly orders = new Map<string, { schedule: Schedule, enabledAt: readonly number[], applies?: readonly { unit: string }[] }>()
  deviations: Deviation | null = null
  runs = 0

  constructor(private readonly space: Space, readonly realised: RealisedOrders | undefined) {}

  /** Records one run (its `index` is its position in the unsharded plan). */
  add(record: InterleavingRecord): void {
    this.runs++
    const first: InterleavingRecord = { ...record, json: undefined }
    const group = this.groups.get(record.hash)
    if (!group) {
      this.groups.set(record.hash, { hash: record.hash, count: 1, first, json: record.json! })
    } else {
      group.count++
      if (first.index < group.first.index) group.first = first
      if (group.json === undefined && record.json !== undefined) group.json = record.json
    }
    this.addOrder(record.schedule, record.enabledAt, record.applies)
  }

  /** Records one effective order, when each of its operations was requested, and its applies when recorded (from a run, or from a shard's report). */
  addOrder(schedule: Schedule, enabledAt: readonly number[], applies?: readonly { unit: string }[]): void {
    const key = scheduleKey(schedule)
    if (this.orders.has(key)) return
    this.orders.set(key, { schedule: [...schedule], enabledAt: [...enabledAt], ...applies === undefined ? {} : { applies } })
    this.realised?.add(schedule, enabledAt)
    const reason = deviation(this.space, schedule)
    if (reason === undefined) return
    if (this.deviations) this.deviations.count++
    else this.deviations = { count: 1, schedule: [...schedule], reason }
  }

  /** Distinct effective orders so far. */
  distinct(): number {
    return this.orders.size
  }

  /** The distinct effective orders, as {@link formatOrderKey} strings. */
  orderKeys(): string[] {
    return [...this.orders.values()].map(order => formatOrderKey(order.schedule, order.enabledAt))
  }

  /** Outputs by first appearance. */
  outputs(): OutputGroup[] {
    return [...this.groups.values()].sort((a, b) => a.first.index - b.first.index)
  }

  /** Whether the distinct effective orders so far hold every order of `strength` operations the system allows. */
  realisedAt(strength: number): boolean {
    if (this.realised?.strength === strength) return this.realised.complete()
    return realisedIn(this.space, strength, this.orders.values())
  }

  /** Whether the applies the distinct orders showed hold every relative order of `strength` plugins the load order can give (false without an apply structure, or when an order recorded none). */
  appliesAt(strength: number): boolean {
    const structure = this.space.applies
    if (structure === undefined) return false
    const table = ApplyOrders.of(structure, strength)
    if (table === undefined) return false
    for (const order of this.orders.values()) {
      if (order.applies === undefined) return false
      table.add(realisedApplies(structure, order.applies))
    }
    return table.complete()
  }

  coverage(): Exploration['coverage'] {
    return this.realised && { strength: this.realised.strength, ...this.realised.counts() }
  }
}

