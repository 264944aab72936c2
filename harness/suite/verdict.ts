import type { Schedule } from '../space/space.ts'
import type { Guarantee } from '../strategies/index.ts'
import type { TestStatus } from './results.ts'

/**
 * One verdict per test of the user's suite, read from the suite's own
 * per-test results in the reference run and under every schedule.
 *
 * - `holds`: passes in the reference run and under every schedule.
 * - `pins-one`: passes under some load orders and fails under others,
 *   reproducibly; the test pins one side of a race in the load order.
 * - `fails`: fails in the reference run and under every schedule: not about
 *   order (said once, never blamed on a pair).
 * - `skipped`: the suite skips it.
 * - `flaky`: a rerun under the same schedule gave another result: it varies
 *   for a reason outside the load order.
 */
export type TestVerdict = 'holds' | 'pins-one' | 'fails' | 'skipped' | 'flaky'

/** Every verdict, in the order reports list them (the findings first). */
export const TEST_VERDICTS: readonly TestVerdict[] = ['pins-one', 'flaky', 'fails', 'holds', 'skipped']

/** What each verdict means, in one sentence. */
export const TEST_VERDICT_MEANING: Readonly<Record<TestVerdict, string>> = {
  'holds': 'passes in the reference run and under every load order tried',
  'pins-one': 'passes under some load orders and fails under others, reproducibly: it pins one side of a load-order race',
  'fails': 'fails in the reference run and under every load order: not about the load order',
  'skipped': 'the suite skips it',
  'flaky': 'a rerun under the same load order gave another result: it varies for a reason outside the load order',
}

/** Whether a verdict makes the run fail (exit 1). */
export function isFinding(verdict: TestVerdict): boolean {
  return verdict === 'pins-one' || verdict === 'flaky' || verdict === 'fails'
}

/** A test's result in one run of the command: `missing` when that run did not report the test. */
export type RunStatus = TestStatus | 'missing'

/** The orders one run gave each configuration (empty for the reference run). */
export type Rows = Readonly<Record<string, Schedule>>

/** One side of a pinned race: a run, its result, and the realised orders of the test's configurations. */
export interface PinnedSide {
  readonly run: string
  readonly status: TestStatus
  /** Realised order per configuration the test booted, when the test ran alone. */
  readonly orders: Rows
}

/** How a `pins-one` test was narrowed to one swap. */
export interface Blame {
  readonly configuration: string
  /** The two loader entries whose adjacent swap flips the test, in the order of `passing`. */
  readonly entries: readonly [string, string]
  /** The order under which the test passes, and the same with the pair swapped, under which it fails. */
  readonly passing: Schedule
  readonly failing: Schedule
  /** How many runs of the test alone the narrowing took. */
  readonly runs: number
}

/** Everything said of one test. */
export interface TestFinding {
  readonly file: string
  readonly name: string
  readonly verdict: TestVerdict
  /** Its result in every run, reference first. */
  readonly results: readonly { run: string, status: RunStatus }[]
  /** The suite's own failure message, from the first run it failed in. */
  readonly message?: string
  /** For a finding, what the suite printed of its failure (message, diff, code frame) when the test ran alone on its failing side. */
  readonly failure?: string
  /** For `pins-one`: the two sides and, when found, the blamed pair. */
  readonly pinsOne?: {
    readonly passing: PinnedSide
    readonly failing: PinnedSide
    readonly blame?: Blame
    /** Why no pair was blamed, when none was. */
    readonly unblamed?: string
    /** The reference run (this machine's natural order) is the failing side. */
    readonly naturalOrderFails: boolean
  }
  /** For `flaky`: the run and what its rerun gave. */
  readonly flaky?: { readonly run: string, readonly first: RunStatus, readonly rerun: RunStatus }
}

/** The verdict of a test from its results alone, before any rerun: `undefined` when they differ between runs (a rerun decides). */
export function verdictOfResults(statuses: readonly RunStatus[]): TestVerdict | undefined {
  const seen = new Set(statuses.filter(status => status !== 'missing'))
  if (seen.size === 0 || (seen.size === 1 && seen.has('skipped'))) return 'skipped'
  seen.delete('skipped')
  if (seen.size === 1) return seen.has('passed') ? 'holds' : 'fails'
  return undefined
}

/** A configuration's plan as the report shows it. */
export interface ConfigurationSummary {
  readonly configuration: string
  readonly entries: readonly string[]
  /** Rows of the plan in all, the reference's order among them when it counted. */
  readonly rows: number
  /** The reference run's order is the plan's first row (every process of the configuration released one order in it). */
  readonly fromReference: boolean
  readonly processes: number
  readonly guarantee: Guarantee
}
