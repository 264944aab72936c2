import type { RunSchedule } from '../preload/protocol.js'
import type { Orders, RunStatus } from '../verdict/test-verdict.ts'
import { ordersKey, sideRun, type KnownOf, type RealisedOf } from './realised.ts'
import { statusIn, type Rerun, type Rerunner, type RerunPurpose, type RunsAlone } from './rerunner.ts'
import { testKey, type TestResult } from './results.ts'

/**
 * Reruns that tests with the same sides share. Tests of one file whose
 * results differed in the same runs, and whose boots realised the same
 * orders in those runs, ask for the same reruns alone: the same sides to
 * confirm, and as long as their statuses agree, the same orders to narrow
 * over. So they are decided one after another, and a rerun one of them
 * asks for runs with it the later ones that have given its status in every
 * shared rerun so far (the tests of that group, nothing else of the suite,
 * as the suite's own runs had them together). A later test's ask is
 * answered from the reruns made under the same rows, in the order they ran,
 * before any new one; once its status parts from a test's, that test's
 * reruns no longer include it. The steps of one test's own bisection
 * (`own`) run it alone: a later test checks the blame that bisection ends
 * in at its two orders (`blame.ts`), which is cheaper than carrying it
 * through every step.
 */

/** A differing test's sides, as a key: its file, its status in every run, and the orders its first passing and first failing run realised for it. */
export function sidesKey(test: TestResult, results: readonly { run: string, status: RunStatus }[], realisedOf: RealisedOf, knownOf?: KnownOf): string {
  const side = (status: RunStatus) => {
    const run = sideRun(test, results, status, knownOf)
    return run === undefined ? null : [run, ordersKey(realisedOf(run, test))]
  }
  return JSON.stringify([test.file, results.map(result => result.status), side('passed'), side('failed')])
}

/** Reruns shared by one group of tests, in the order they are decided. */
export class SharedReruns {
  /** Per test, the reruns it ran in or was given, by the rows asked for, in the order they ran. */
  private readonly kept = new Map<string, Map<string, Rerun[]>>()
  /** Per test, its status in each shared rerun it was in. */
  private readonly statuses = new Map<string, Map<string, RunStatus>>()

  constructor(private readonly rerunner: Rerunner, private readonly group: readonly TestResult[]) {}

  /** What runs `test` alone, for its decision: its asks answered from the group's reruns first. */
  for(test: TestResult): RunsAlone {
    return { alone: (asked, mode, rows, why) => this.alone(asked, mode, rows, why) }
  }

  /** The tests after `test` in the group that gave its status in every shared rerun both were in: they will ask for what it asks. */
  private alongside(test: TestResult): TestResult[] {
    const own = this.statuses.get(testKey(test)) ?? new Map<string, RunStatus>()
    const later = this.group.slice(this.group.findIndex(member => testKey(member) === testKey(test)) + 1)
    return later.filter((other) => {
      const theirs = this.statuses.get(testKey(other)) ?? new Map<string, RunStatus>()
      return [...own].every(([run, status]) => !theirs.has(run) || theirs.get(run) === status)
    })
  }

  private async alone(test: TestResult, mode: RunSchedule['mode'], rows: Orders, why: RerunPurpose): Promise<Rerun> {
    const key = testKey(test)
    const under = `${mode}|${ordersKey(rows)}`
    const known = this.kept.get(key)?.get(under)?.shift()
    if (known !== undefined) return { status: statusIn(known.run, key), run: known.run }
    const together = why.own === true ? [] : this.alongside(test)
    const rerun = await this.rerunner.alone(test, mode, rows, why, together)
    for (const member of [test, ...together]) {
      const memberKey = testKey(member)
      const statuses = this.statuses.get(memberKey) ?? new Map<string, RunStatus>()
      this.statuses.set(memberKey, statuses.set(rerun.run.name, statusIn(rerun.run, memberKey)))
      if (member === test) continue
      const byRows = this.kept.get(memberKey) ?? new Map<string, Rerun[]>()
      this.kept.set(memberKey, byRows.set(under, [...byRows.get(under) ?? [], rerun]))
    }
    return rerun
  }
}
