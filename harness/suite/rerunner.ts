import type { AnyReporter } from '../report/reporter.ts'
import type { Orders, RunStatus, TestStatus } from '../verdict/test-verdict.ts'
import type { RunSchedule } from '../preload/protocol.js'
import { runsOneTest } from './command-line.ts'
import { runCommand, type CommandRun, type RunPlace } from './command-run.ts'
import { Interrupted } from './interrupted.ts'
import { testKey, type TestResult } from './results.ts'


/**
 * Reruns of one test alone (`rerun-1`, `rerun-2`, …): the command narrowed
 * to the test, under given rows, told to the reporters as each starts. A
 * rerun that an interruption ended says nothing about the test: it throws
 * `Interrupted`, and none starts once the run is interrupted.
 */

/** Why a test is rerun alone, as the reporters are told. */
export interface RerunPurpose {
  readonly purpose: 'passing' | 'failing' | 'narrowing'
  /** A bisection step of this test's own narrowing: tests with the same sides are not taken along (they check the blame it ends in instead). */
  readonly own?: boolean
  readonly run: string
  readonly attempt: number
  readonly of: number | undefined
}

/** What a rerun alone gave: the test's status, and the run (its processes' realised orders). */
export interface Rerun {
  readonly status: RunStatus
  readonly run: CommandRun
}

/** A test's result in `run`: `missing` when the run did not report it. */
export function statusIn(run: CommandRun, key: string): RunStatus {
  return run.results?.find(result => testKey(result) === key)?.status ?? 'missing'
}

/** What runs a test alone: the rerunner itself, or a view of reruns a group of tests shares (`shared-reruns.ts`). */
export interface RunsAlone {
  alone(test: TestResult, mode: RunSchedule['mode'], rows: Orders, why: RerunPurpose): Promise<Rerun>
}

export class Rerunner implements RunsAlone {
  /** Reruns alone started so far. */
  count = 0

  constructor(
    private readonly place: RunPlace,
    private readonly reporters: readonly AnyReporter[],
    private readonly signal: AbortSignal | undefined,
  ) {}

  /**
   * Runs `test` alone under `rows` (in `mode`): its status there, and the
   * run. `together`: tests of its file that run with it (and nothing else of
   * the suite), their statuses read from the same run.
   */
  async alone(test: TestResult, mode: RunSchedule['mode'], rows: Orders, why: RerunPurpose, together: readonly TestResult[] = []): Promise<Rerun> {
    if (this.signal?.aborted) throw new Interrupted(`rerun-${this.count + 1}`)
    const name = `rerun-${++this.count}`
    const also = together.length === 0 ? {} : { together: together.map(testKey) }
    for (const reporter of this.reporters) reporter.onRerun?.({ test: testKey(test), ...why, count: this.count, ...also })
    const only = runsOneTest(this.place.command) ? { only: [test.name, ...together.map(other => other.name)], file: test.file } : {}
    const run = await runCommand(this.place, { name, schedule: { mode, project: this.place.cwd, rows }, ...only })
    if (this.signal?.aborted) throw new Interrupted(name)
    return { status: statusIn(run, testKey(test)), run }
  }
}

/** The status a side of a differing test is expected to show again. */
export type SideStatus = Extract<TestStatus, 'passed' | 'failed'>
