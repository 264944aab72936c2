import { scheduleKey, type Schedule, type Space } from '../space/space.ts'
import { deviation } from '../space/discovered.ts'
import type { RealisedOrders } from '../space/coverage.ts'
import { realisedIn } from './guarantee.ts'
import type { InterleavingRecord } from '../runners/runner.ts'
import type { Deviation, Exploration, OutputGroup } from './exploration.ts'
import { formatOrderKey } from './order-key.ts'

/** Bookkeeping over the runs of one exploration: outputs, distinct effective orders, deviations and realised t-orders. */
export class ExplorationLog {
  readonly groups = new Map<string, OutputGroup>()
  /** Distinct effective orders (by schedule key) and when each of their operations was requested. */
  private readonly orders = new Map<string, { schedule: Schedule, enabledAt: readonly number[] }>()
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
    this.addOrder(record.schedule, record.enabledAt)
  }

  /** Records one effective order and when each of its operations was requested (from a run, or from a shard's report). */
  addOrder(schedule: Schedule, enabledAt: readonly number[]): void {
    const key = scheduleKey(schedule)
    if (this.orders.has(key)) return
    this.orders.set(key, { schedule: [...schedule], enabledAt: [...enabledAt] })
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

  coverage(): Exploration['coverage'] {
    return this.realised && { strength: this.realised.strength, ...this.realised.counts() }
  }
}

