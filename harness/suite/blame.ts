import { minimise } from '../oracle/minimise.ts'
import { scheduleKey, type Schedule } from '../space/space.ts'
import type { Blame, PinnedSide, RunStatus } from '../verdict/test-verdict.ts'
import { Interrupted } from './interrupted.ts'
import { ordersKey } from './realised.ts'
import type { Rerunner } from './rerunner.ts'
import type { TestResult } from './results.ts'

/**
 * Narrows a pinned race to one swap of loader entries. For each
 * configuration the two sides booted in different orders, the test runs
 * alone with that configuration in its failing order and every other in its
 * passing order: the first configuration that alone makes it fail is the
 * one, and reruns alone along the swaps from its passing order to its
 * failing order (bisection, as the sweep shrinks a divergence) find the
 * adjacent pair that flips it. An order a side's confirming rerun already
 * loaded is not run again.
 */

/** A test's status under orders already run alone, by `ordersKey`. */
export type KnownStatuses = Map<string, RunStatus>

/** The blamed pair, or why none was. */
export type Narrowed = { blame?: Blame, unblamed?: string }

/** The configurations the two sides booted in different orders. */
function differing(passing: PinnedSide, failing: PinnedSide): string[] {
  return Object.keys(failing.orders).filter(configuration => passing.orders[configuration] !== undefined
    && scheduleKey(passing.orders[configuration]!) !== scheduleKey(failing.orders[configuration]!))
}

/** Narrows one configuration's two orders to a pair, or says why it cannot. */
async function narrowConfiguration(test: TestResult, configuration: string, passing: PinnedSide, failing: PinnedSide, seen: KnownStatuses, rerunner: Rerunner): Promise<Blame | string> {
  const left = passing.orders[configuration]!
  const right = failing.orders[configuration]!
  if (left.length !== right.length || new Set([...left, ...right]).size !== left.length) return `the two sides of ${configuration} loaded different entries`
  const known = new Map([[scheduleKey(left), 'passed']])
  let attempt = 0
  const statusUnder = async (order: Schedule): Promise<string> => {
    const rows = { ...passing.orders, [configuration]: order }
    const status = known.get(scheduleKey(order)) ?? seen.get(ordersKey(rows))
      ?? (await rerunner.alone(test, 'row', rows, { purpose: 'narrowing', run: failing.run, attempt: ++attempt, of: undefined })).status
    known.set(scheduleKey(order), status)
    return status
  }
  if (await statusUnder(right) !== 'failed') return `${configuration} in its failing order alone does not fail it`
  try {
    const found = await minimise(left, right, statusUnder)
    const flipped = found.leftHash === 'passed'
    const [passingOrder, failingOrder] = flipped ? [found.left, found.right] : [found.right, found.left]
    const entries = flipped ? found.blame : [found.blame[1], found.blame[0]] as const
    return { configuration, entries: [entries[0], entries[1]], passing: passingOrder, failing: failingOrder, runs: found.runs }
  } catch (error) {
    if (error instanceof Interrupted) throw error
    return error instanceof Error ? error.message : String(error)
  }
}

/** The pair of loader entries whose swap flips `test`, or why no pair was blamed. */
export async function narrow(test: TestResult, passing: PinnedSide, failing: PinnedSide, seen: KnownStatuses, rerunner: Rerunner): Promise<Narrowed> {
  const configurations = differing(passing, failing)
  if (configurations.length === 0) return { unblamed: 'both sides booted their configurations in the same order when the test ran alone' }
  const reasons: string[] = []
  for (const configuration of configurations) {
    const found = await narrowConfiguration(test, configuration, passing, failing, seen, rerunner)
    if (typeof found !== 'string') return { blame: found }
    reasons.push(found)
  }
  return { unblamed: reasons.join('; ') }
}
