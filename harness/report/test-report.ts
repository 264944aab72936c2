/**
 * The machine contract of `loadrace test` (`report.json`, `"report": "test"`).
 * Every other format of a test run is rendered from this one object: the
 * envelope every loadrace report carries (tool, version, complete, options,
 * summary) around the command, its configurations' plans, one finding per
 * test and every run of the command.
 */
import type { Apply } from '../preload/applies.js'
import type { DecisionPoint } from '../preload/protocol.js'
import type { Envelope } from './envelope.ts'
import type { ProcessNote, TestFinding, TestVerdict } from '../verdict/test-verdict.ts'

/** How the run was planned and judged: the settings as resolved, so that a merge of shards plans exactly as they did. */
export interface TestReportOptions {
  strategy: string
  budget: number
  seed: string
  /** PCT depth (`--depth`), null when the strategy default applied. */
  depth: number | null
  /** Covering strength (`--strength`), null when the strategy default applied. */
  strength: number | null
  /** `i/n`, or null when not sharded. */
  shard: string | null
  reruns: number
  jobs: number
  /** The JUnit file results were read from (`--junit`), null when loadrace added its own reporter. */
  junit: string | null
}

export interface TestReportSummary extends Record<TestVerdict, number> {
  tests: number
  /** Runs of the whole command: the natural run and the schedules. */
  runs: number
  /** Runs of one test alone. */
  reruns: number
}

/** One configuration's plan as the report shows it. */
export interface ConfigurationEntry {
  configuration: string
  entries: readonly string[]
  /** Rows of the plan in all, the natural run's orders among them when they counted. */
  rows: number
  /** The natural run's order is the plan's first row (every process of the configuration released one order in it; a plan over applies counts every order they realised). */
  fromNatural: boolean
  /** How many of the rows are the natural run's own orders. */
  naturalOrders: number
  /** Deprecated: `fromNatural` under its earlier name; removed in 0.2. */
  fromReference: boolean
  processes: number
  /** What the plan covered: the orders of imports, or of plugins' applies (`--strategy applies`). */
  over: 'imports' | 'applies'
  /** The plugins the natural run saw apply under the configuration's entries (absent when it recorded none). */
  units?: number
  /** What the realised orders prove: `exhaustive`, `t-way:N`, `applies:N` or `sampled`. */
  guarantee: string
  /** Why a plan over applies planned or proved over imports instead. */
  note?: string
  /**
   * A plan over applies: how far the applies every process recorded reached —
   * the owed relative orders of two plugins shown, the ties (two plugins
   * applying at one release, in the system's order) reversed — and how many
   * rows after the natural run every owed order would take.
   */
  reach?: {
    orders: { shown: number, owed: number }
    ties: { reversed: number, reversible: number }
    rowsNeeded?: number
  }
}

/** One run of the command as the report keeps it: the rows it gave, and what each process booted and realised. */
export interface TestReportRun {
  name: string
  exitCode: number | null
  durationMs: number
  rows: Readonly<Record<string, readonly string[]>>
  /** The command's output, relative to the report folder. */
  log: string
  /** What each process booted and realised; when its plugins applied too, so a merge plans over applies as the run did. */
  processes: readonly { configuration: string | null, requested: readonly DecisionPoint[], released: readonly string[], applies?: readonly Apply[] }[]
}

/** Why the run stopped before its end: the run it stopped in, and the runs of the plan that never ran. */
export interface TestInterruption {
  /** The run of the command, or the rerun alone, that was running. */
  during: string
  /** Runs of the plan that never ran (its rows there untried). */
  neverRan: readonly string[]
}

/** A replay (`--order`, `--only`): the orders given and the one test named. */
export interface TestReplay {
  orders: Readonly<Record<string, readonly string[]>>
  only: string | null
}

/**
 * How far a test run reached: the loader boots the runs of its plan made
 * (one per root loader a process or a vitest worker started), how many
 * followed a row, in how many tests (or suites, or files: a boot made in a
 * `beforeAll` counts once), those that did not and why, those made by tests
 * running concurrently, and for a vitest command the projects of its config
 * the loader instrumentation was added to.
 */
export interface TestReach {
  boots: number
  controlled: number
  tests: number
  uncontrolled: readonly { why: string, boots: number }[]
  ambiguous?: number
  projects?: readonly { project: string, reached: boolean, why?: string }[]
}

/** `report.json` of `loadrace test`. */
export interface TestReport extends Envelope<TestReportOptions, TestReportSummary> {
  report: 'test'
  command: readonly string[]
  cwd: string
  /** Set when nothing could be judged (exit 4): why, in one line. */
  unjudged?: string
  /** Set when a signal stopped the run. */
  interrupted?: TestInterruption
  /** Set for a replay. */
  replay?: TestReplay
  configurations: readonly ConfigurationEntry[]
  /** How far the run reached (absent from a replay and from a run that judged nothing). */
  reach?: TestReach
  tests: readonly TestFinding[]
  runs: readonly TestReportRun[]
  processNotes: readonly ProcessNote[]
}
