import type { BootRecord } from '../preload/protocol.js'
import type { Orders } from '../verdict/test-verdict.ts'

/** What the processes of one run realised: the order each configuration's entries were released in. */

/** One key for the orders of every configuration a run booted: two runs with equal keys loaded alike. */
export function ordersKey(orders: Orders): string {
  return JSON.stringify(Object.keys(orders).sort().map(configuration => [configuration, orders[configuration]]))
}

/** The orders a run (by name) realised for a test. */
export type RealisedOf = (run: string, test: { file: string, name: string }) => Orders

/** Whether a boot ran under `test`: started by it, by a suite around it, or at its file's top level. */
export function bootedFor(record: Pick<BootRecord, 'test'>, test: { file: string, name: string }): boolean {
  const by = record.test
  if (by === undefined || by.file !== test.file) return false
  return by.kind === 'file' || by.name === test.name || (by.kind === 'suite' && test.name.startsWith(`${by.name} `))
}

/**
 * The realised order per configuration of the boots of one run (the first
 * boot of each); for `test`, of the boots made for it when the run says
 * which those were (a vitest worker's boots), else of every boot.
 */
export function realisedOrders(processes: readonly Pick<BootRecord, 'configuration' | 'released' | 'test'>[], test?: { file: string, name: string }): Orders {
  const own = test === undefined ? [] : processes.filter(record => bootedFor(record, test))
  const orders: Record<string, readonly string[]> = {}
  for (const record of own.length > 0 ? own : processes) if (record.configuration !== null && orders[record.configuration] === undefined) orders[record.configuration] = record.released
  return orders
}

/** Whether `loaded` gave every configuration of `intended` the order `intended` names (configurations it did not boot aside). */
export function sameOrders(intended: Orders, loaded: Orders): boolean {
  return Object.entries(intended).every(([configuration, order]) => loaded[configuration] === undefined || order.join(',') === loaded[configuration]!.join(','))
}

/** The configurations whose processes in one run released their entries in more than one order. */
export function disagreeing(processes: readonly Pick<BootRecord, 'configuration' | 'released'>[]): string[] {
  const orders = new Map<string, Set<string>>()
  for (const record of processes) {
    if (record.configuration === null) continue
    const known = orders.get(record.configuration) ?? new Set<string>()
    known.add(record.released.join(','))
    orders.set(record.configuration, known)
  }
  return [...orders].filter(([, seen]) => seen.size > 1).map(([configuration]) => configuration).sort()
}
