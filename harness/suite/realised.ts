import type { BootRecord } from '../preload/protocol.js'
import type { Orders, RunStatus } from '../verdict/test-verdict.ts'

/** What the processes of one run realised: the order each configuration's entries were released in. */

/** One key for the orders of every configuration a run booted: two runs with equal keys loaded alike. */
export function ordersKey(orders: Orders): string {
  return JSON.stringify(Object.keys(orders).sort().map(configuration => [configuration, orders[configuration]]))
}

/** The orders a run (by name) realised for a test. */
export type RealisedOf = (run: string, test: { file: string, name: string }) => Orders

/** Whether the orders a run (by name) realised for a test are known (`ordersKnown`). */
export type KnownOf = (run: string, test: { file: string, name: string }) => boolean

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

/**
 * Whether `boots` (of one configuration) loaded it alike: its plugins
 * applied in one order, where every boot recorded its applies (two release
 * orders that apply the plugins alike show a test the same, and a plan over
 * applies counts them alike), else its entries were released in one order.
 */
export function loadedAlike(boots: readonly Pick<BootRecord, 'released' | 'applies'>[]): boolean {
  const byApplies = boots.every(boot => (boot.applies?.length ?? 0) > 0)
  return new Set(boots.map(boot => (byApplies ? boot.applies!.map(apply => apply.unit) : boot.released).join('\n'))).size <= 1
}

/**
 * Whether the orders `processes` realised for `test` are known: the run says
 * which boots were the test's own, or the boots of each configuration loaded
 * it alike (`loadedAlike`). When a run's boots of one cordis.yml loaded it
 * otherwise and none is known to be the test's (a process a test spawned,
 * under a runner that does not say which test), the first boot's order may be
 * another test's.
 */
export function ordersKnown(processes: readonly Pick<BootRecord, 'configuration' | 'released' | 'applies' | 'test'>[], test: { file: string, name: string }): boolean {
  if (processes.some(record => bootedFor(record, test))) return true
  const configurations = new Set(processes.flatMap(record => record.configuration === null ? [] : [record.configuration]))
  return [...configurations].every(configuration => loadedAlike(processes.filter(record => record.configuration === configuration)))
}

/** The run a test's side is taken from: the first run it gave `status` in whose orders for it are known, else the first it gave `status` in. */
export function sideRun(test: { file: string, name: string }, results: readonly { run: string, status: RunStatus }[], status: RunStatus, knownOf?: KnownOf): string | undefined {
  const runs = results.filter(result => result.status === status)
  return (runs.find(result => knownOf?.(result.run, test) ?? true) ?? runs[0])?.run
}
