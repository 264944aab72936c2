import type { AnyReporter } from '../report/reporter.ts'
import type { TestReplay } from '../report/test-report.ts'
import { verdictOfResults, type TestFinding } from '../verdict/test-verdict.ts'
import { runsOneTest } from './command-line.ts'
import { shownPath, type CommandRun, type RunPlace } from './command-run.ts'
import { testKey } from './results.ts'
import { runOnce } from './runs.ts'
import { whyUnjudged } from './nothing-judged.ts'

/**
 * A replay (`--order CONFIG=E1,E2,… --only NAME`): the command run once with
 * the processes booting each named configuration releasing its entries in
 * the order given, narrowed to one test when one is named. Each test it ran
 * is reported with its result there.
 */

/** What a replay gave: its run, the result of each test it ran, and why nothing could be judged when so. */
export interface ReplayOutcome {
  readonly run: CommandRun
  readonly tests: readonly TestFinding[]
  readonly unjudged?: string
}

/** Runs the replay `replay` and reads its results, telling `reporters` of the run and of each test. */
export async function replayOrder(place: RunPlace, replay: TestReplay, reporters: readonly AnyReporter[], signal?: AbortSignal): Promise<ReplayOutcome> {
  const only = replay.only !== null && runsOneTest(place.command) ? { only: replay.only } : {}
  const run = await runOnce(place, { name: 'replay', schedule: { mode: 'row', project: place.cwd, rows: replay.orders }, ...only }, { index: 1, total: 2 }, reporters, signal)
  if (run.startError !== undefined) return { run, tests: [], unjudged: whyUnjudged(run, place, shownPath(place, run.log)) }
  const results = (run.results ?? []).filter(result => replay.only === null || result.name === replay.only)
  const tests = results.map((result): TestFinding => ({
    file: result.file,
    name: result.name,
    verdict: verdictOfResults([result.status])!,
    results: [{ run: run.name, status: result.status }],
    ...result.message === undefined ? {} : { message: result.message },
  }))
  for (const test of tests) for (const reporter of reporters) reporter.onTestJudged?.(test)
  if (tests.length > 0) return { run, tests }
  return { run, tests, unjudged: replay.only === null ? `the command reported no test; its output is in ${shownPath(place, run.log)}` : `no test named ${JSON.stringify(replay.only)} ran; its output is in ${shownPath(place, run.log)}` }
}

