import { readFileSync } from 'node:fs'
import type { Orders, PinnedSide, RunStatus, TestFinding } from '../verdict/test-verdict.ts'
import { narrow, type KnownStatuses, type Precedent } from './blame.ts'
import { ordersKey, realisedOrders, sameOrders, sideRun, type KnownOf, type RealisedOf } from './realised.ts'
import type { RunsAlone, SideStatus } from './rerunner.ts'
import { vitestFailureBlock, type TestResult } from './results.ts'
import { NATURAL_RUN } from './runs.ts'

/**
 * A test whose results differ between runs: reruns alone decide it. Each
 * side — a run it passed in, a run it failed in — is rerun alone under the
 * orders that run's processes realised (the natural run's too: its own load
 * order, given as a row, not left to the machine again), `reruns` times
 * each. Another result under the same realised orders makes it `flaky`; the
 * same results make it `pins-one`, narrowed to a blamed pair (`blame.ts`). A
 * rerun that could not realise its side's orders is tried once more, and a
 * different result there is said to be under another order.
 */

/** What deciding a test needs besides the test. */
export interface DecisionContext {
  readonly rerunner: RunsAlone
  /** The orders a run of the command realised for a test (its first boot per configuration, the test's own where known). */
  readonly realisedOf: RealisedOf
  /** Whether those orders are known; a side is taken from a run whose are, where the test gave that result in one (`sideRun`). */
  readonly knownOf?: KnownOf
  /** Reruns alone per side. */
  readonly reruns: number
  /** Blames found for earlier tests with the same sides: a test that flips at one's swap takes it (`blame.ts`). */
  readonly precedents?: readonly Precedent[]
}

/** What the suite printed of `test`'s failure in a run's output (vitest's default reporter), if anything. */
function failureIn(log: string, test: TestResult): string | undefined {
  try {
    return vitestFailureBlock(readFileSync(log, 'utf8'), test)
  } catch {
    return undefined
  }
}

/** A side as its reruns confirmed it, or the flaky finding when one gave another result. */
type Confirmed = { side: PinnedSide, failure?: string } | { flaky: NonNullable<TestFinding['flaky']> }

/** Reruns one side alone `reruns` times under the orders its run realised; every status it gave, by realised orders, goes into `seen`. */
async function confirmSide(test: TestResult, run: string, status: SideStatus, context: DecisionContext, seen: KnownStatuses): Promise<Confirmed> {
  const intended = context.realisedOf(run, test)
  let orders: Orders | undefined
  let failure: string | undefined
  let retried = false
  for (let attempt = 1; attempt <= context.reruns; attempt++) {
    const why = { purpose: status === 'passed' ? 'passing' as const : 'failing' as const, run, attempt, of: context.reruns }
    const rerun = await context.rerunner.alone(test, 'row', intended, why)
    const loaded = realisedOrders(rerun.run.processes, test)
    const reproduced = sameOrders(intended, loaded)
    if (rerun.status !== status) {
      // Another result under another order says nothing of the side: once, it is tried again.
      if (!reproduced && !retried) {
        retried = true
        attempt--
        continue
      }
      return { flaky: { run, first: status, rerun: rerun.status, ...reproduced ? {} : { order: 'other' as const } } }
    }
    orders ??= loaded
    seen.set(ordersKey(loaded), rerun)
    if (status === 'failed') failure ??= failureIn(rerun.run.log, test)
  }
  return { side: { run, status, orders: orders ?? {} }, ...failure === undefined ? {} : { failure } }
}

/** Whether the test failed in the natural run: this machine's own load order is a failing one, whichever run its failing side was rerun from. */
export function failedNaturally(results: readonly { run: string, status: RunStatus }[]): boolean {
  return results.some(result => result.run === NATURAL_RUN && result.status === 'failed')
}

/** Decides a test whose `results` hold both a pass and a failure. */
export async function decide(test: TestResult, base: Omit<TestFinding, 'verdict'>, results: readonly { run: string, status: RunStatus }[], context: DecisionContext): Promise<TestFinding> {
  const seen: KnownStatuses = new Map()
  const passing = await confirmSide(test, sideRun(test, results, 'passed', context.knownOf)!, 'passed', context, seen)
  if ('flaky' in passing) return { ...base, verdict: 'flaky', flaky: passing.flaky }
  const failing = await confirmSide(test, sideRun(test, results, 'failed', context.knownOf)!, 'failed', context, seen)
  if ('flaky' in failing) return { ...base, verdict: 'flaky', flaky: failing.flaky }
  const narrowed = await narrow(test, passing.side, failing.side, seen, context.rerunner, failing.failure ?? base.message ?? '', context.precedents)
  return {
    ...base,
    ...failing.failure === undefined ? {} : { failure: failing.failure },
    verdict: 'pins-one',
    pinsOne: { passing: passing.side, failing: failing.side, ...narrowed, naturalOrderFails: failedNaturally(results) },
  }
}
