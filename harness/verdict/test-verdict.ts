/**
 * The words of `loadrace test`'s findings: one verdict per test of the
 * user's suite, read from the suite's own per-test results in the natural
 * run and under every schedule, and what is said beside it.
 *
 * - `holds`: passes in the natural run and under every schedule.
 * - `pins-one`: passes under some load orders and fails under others,
 *   reproducibly; the test pins one side of a race in the load order.
 * - `fails`: fails in the natural run and under every schedule: not about
 *   order (said once, never blamed on a pair).
 * - `skipped`: the suite skips it.
 * - `flaky`: a rerun alone under the same realised load order gave another result:
 *   it varies for a reason outside the load order.
 */
export type TestVerdict = 'holds' | 'pins-one' | 'fails' | 'skipped' | 'flaky'

/** Every verdict, in the order reports list them (the findings first). */
export const TEST_VERDICTS: readonly TestVerdict[] = ['pins-one', 'flaky', 'fails', 'holds', 'skipped']

/** What each verdict means, in one sentence. */
export const TEST_VERDICT_MEANING: Readonly<Record<TestVerdict, string>> = {
  'holds': 'passes in the natural run and under every load order tried',
  'pins-one': 'passes under some load orders and fails under others, reproducibly: it pins one side of a load-order race',
  'fails': 'fails in the natural run and under every load order: not about the load order',
  'skipped': 'the suite skips it',
  'flaky': 'a rerun alone under the same realised load order gave another result: it varies for a reason outside the load order',
}

/** Whether a verdict makes the run fail (exit 1). */
export function isFinding(verdict: TestVerdict): boolean {
  return verdict === 'pins-one' || verdict === 'flaky' || verdict === 'fails'
}

/** What one test did in one run of the command, as the suite reported it. */
export type TestStatus = 'passed' | 'failed' | 'skipped'

/** A test's result in one run of the command: `missing` when that run did not report the test. */
export type RunStatus = TestStatus | 'missing'

/** A load order per configuration (its loader entries, in release order). */
export type Orders = Readonly<Record<string, readonly string[]>>

/** The verdict of a test from its results alone, before any rerun: `undefined` when they differ between runs (a rerun decides). */
export function verdictOfResults(statuses: readonly RunStatus[]): TestVerdict | undefined {
  const seen = new Set(statuses.filter(status => status !== 'missing'))
  if (seen.size === 0 || (seen.size === 1 && seen.has('skipped'))) return 'skipped'
  seen.delete('skipped')
  if (seen.size === 1) return seen.has('passed') ? 'holds' : 'fails'
  return undefined
}

/** One side of a pinned race: a run, its result, and the realised orders of the test's configurations. */
export interface PinnedSide {
  readonly run: string
  readonly status: TestStatus
  /** Realised order per configuration the test booted, when the test ran alone. */
  readonly orders: Orders
}

/** How a `pins-one` test was narrowed to one swap. */
export interface Blame {
  readonly configuration: string
  /** The two loader entries whose adjacent swap flips the test, in the order of `passing`. */
  readonly entries: readonly [string, string]
  /**
   * The two plugins whose race the test sits on (in the order of `passing`),
   * when the runs recorded their applies, found by bisecting the plugin
   * pairs the two sides applied in opposite orders: `isolated` when the
   * bisection left two plugins; `class` when one of them always applies
   * with others the load order cannot move apart (`classes` lists them; the
   * one the failure's text names is given); `unconfirmed` when the pairs
   * could not be split further.
   */
  readonly plugins?: readonly [string, string]
  readonly how?: 'isolated' | 'class' | 'unconfirmed'
  /** How many plugin pairs the two sides applied in opposite orders. */
  readonly flipped?: number
  /** For `class`: the plugins that always apply with each of the two named. */
  readonly classes?: readonly [readonly string[], readonly string[]]
  /** The order under which the test passes, and the same with the pair swapped, under which it fails. */
  readonly passing: readonly string[]
  readonly failing: readonly string[]
  /** How many runs of the test alone the narrowing took. */
  readonly runs: number
  /**
   * Set when the blame was taken from another test with the same sides
   * (its file › name): this test, run at that blame's two orders, passed
   * and failed as that test did, so the same swap flips it; that test's
   * bisection named the plugins.
   */
  readonly after?: string
}

/** Everything said of one test. */
export interface TestFinding {
  readonly file: string
  readonly name: string
  readonly verdict: TestVerdict
  /** Its result in every run, the natural run first. */
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
    /** The test failed in the natural run (this machine's own load order). */
    readonly naturalOrderFails: boolean
  }
  /**
   * For `flaky`: the run, what it gave, and what its rerun alone under the
   * orders that run realised gave; `order: 'other'` when the rerun could not
   * realise them (twice) and gave another result under another order.
   */
  readonly flaky?: { readonly run: string, readonly first: RunStatus, readonly rerun: RunStatus, readonly order?: 'other' }
  /**
   * Set when the run was interrupted before this verdict was final: the rows
   * never run (or the reruns alone never finished) could still change it. The
   * verdict is then what the runs so far say, not a conclusion.
   */
  readonly partial?: string
  /** The command that reruns this test alone under its failing order (a `pins-one`). */
  readonly replay?: string
}

/** What a process did that the plan did not foresee. */
export interface ProcessNote {
  readonly run: string
  readonly configuration: string | null
  readonly pid: number
  /** `unknown`: the plan has no row for its configuration; `unreachable`: it released two waiting entries against its row (a module slower than the preload waits for). */
  readonly kind: 'unknown' | 'unreachable'
  readonly row?: readonly string[]
  readonly realised: readonly string[]
  /** For `unreachable`: the row's earlier entry, released after the later one although it was already waiting. */
  readonly inversion?: readonly [string, string]
}
