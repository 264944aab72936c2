import { UsageError } from './usage-error.ts'

/**
 * A replay's load orders (`loadrace test --order CONFIG=E1,E2,…`): per
 * configuration (its cordis.yml, as the report names it), the order its
 * loader entries are released in.
 */

/** What separates two orders in `LOADRACE_ORDER` (the command line repeats `--order` instead). */
export const ORDER_SEPARATOR = ';'

/** Reads `CONFIG=E1,E2,…` texts from `source` (`--order` or `LOADRACE_ORDER`); a configuration given twice is bad input. */
export function parseOrders(source: string, texts: readonly string[]): Record<string, string[]> {
  const orders: Record<string, string[]> = {}
  for (const text of texts) {
    const at = text.lastIndexOf('=')
    const entries = text.slice(at + 1).split(',')
    if (at <= 0 || entries.some(entry => entry === '')) {
      throw new UsageError(`${source}: expected CONFIG=ENTRY,ENTRY,… (the configuration's path, then its loader entries in order), got "${text}"`)
    }
    const configuration = text.slice(0, at)
    if (orders[configuration] !== undefined) throw new UsageError(`${source}: ${configuration} is given two orders; give each configuration once`)
    orders[configuration] = entries
  }
  return orders
}

/** `CONFIG=E1,E2,…`, as `--order` takes it. */
export function formatOrder(configuration: string, order: readonly string[]): string {
  return `${configuration}=${order.join(',')}`
}
