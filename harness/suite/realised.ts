import type { ProcessRecord } from '../preload/protocol.js'
import type { Orders } from '../verdict/test-verdict.ts'

/** What the processes of one run realised: the order each configuration's entries were released in. */

/** One key for the orders of every configuration a run booted: two runs with equal keys loaded alike. */
export function ordersKey(orders: Orders): string {
  return JSON.stringify(Object.keys(orders).sort().map(configuration => [configuration, orders[configuration]]))
}

/** The realised order per configuration of the processes of one run (the first process of each). */
export function realisedOrders(processes: readonly Pick<ProcessRecord, 'configuration' | 'released'>[]): Orders {
  const orders: Record<string, readonly string[]> = {}
  for (const record of processes) if (record.configuration !== null && orders[record.configuration] === undefined) orders[record.configuration] = record.released
  return orders
}
