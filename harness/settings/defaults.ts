import { availableParallelism } from 'node:os'
import { DEFAULT_DEPTH, DEFAULT_STRENGTH, type StrategyName } from '../strategies/index.ts'
import { APPLICATION_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../runtime/interleaving.ts'
import { DOCUMENT_FORMATS, REPORT_FORMATS, type ReportFormat } from './formats.ts'

/**
 * Every default of every setting, in one place: what a sweep uses when
 * neither the command line nor the environment says otherwise, and what each
 * other command uses instead. A default that is `undefined` leaves the choice
 * to each scenario (its own `variant:`, `target:`, `timeout:`, `host:`) or to
 * the strategy (`depth`, `strength`).
 */

/** The budget used when none is given: 7!, so up to seven single-batch plugins are explored exhaustively. */
export const DEFAULT_BUDGET = 5040

/**
 * The default budget of `loadrace matrix` and `loadrace diff-targets`: most
 * interleavings per cell. Small on purpose: the auto strategy plays the 3-way
 * covering rows first, so any order dependence among at most three plugins
 * shows within them, and a scenario whose whole space fits is explored
 * exhaustively.
 */
export const MATRIX_BUDGET = 48

/** The default strategy. */
export const DEFAULT_STRATEGY: StrategyName = 'auto'

/** The default seed. */
export const DEFAULT_SEED = '0'

/** The most tests `loadrace test --jobs` decides side by side. */
export const MAX_JOBS = 64

/** The CPUs this machine offers: the default number of workers, and the most. */
export function availableCpus(): number {
  return availableParallelism()
}

/** The commands that take settings. */
export type CommandName = 'sweep' | 'watch' | 'matrix' | 'diff-targets' | 'merge' | 'replay' | 'list' | 'test' | 'snapshots'

/** The defaults a command can have. */
export interface Defaults {
  strategy: StrategyName
  budget: number
  seed: string
  depth: number | undefined
  strength: number | undefined
  /** Undefined: `availableCpus()`. */
  workers: number | undefined
  /** Undefined: the command requires `--report`. */
  report: string | undefined
  format: readonly ReportFormat[]
  updateGoldens: boolean
  keepWorkdirs: boolean
  reruns: number
  jobs: number
}

/** The defaults of `loadrace sweep` (and of `loadrace/vitest`). */
export const DEFAULTS: Readonly<Defaults> = {
  strategy: DEFAULT_STRATEGY,
  budget: DEFAULT_BUDGET,
  seed: DEFAULT_SEED,
  depth: undefined,
  strength: undefined,
  workers: undefined,
  report: 'reports/latest',
  format: REPORT_FORMATS,
  updateGoldens: false,
  keepWorkdirs: false,
  // loadrace test: each side of a differing test rerun alone twice; one such test decided at a time.
  reruns: 2,
  jobs: 1,
}

/** Where each other command's defaults differ from the sweep's. */
export const COMMAND_DEFAULTS: Readonly<Record<CommandName, Partial<Defaults>>> = {
  'sweep': {},
  'list': {},
  'replay': {},
  // One scenario at a time is swept: in the child's own thread unless told otherwise.
  'watch': { workers: 1 },
  'matrix': { budget: MATRIX_BUDGET, report: 'reports/matrix', format: DOCUMENT_FORMATS },
  'diff-targets': { budget: MATRIX_BUDGET, report: 'reports/diff-targets', format: DOCUMENT_FORMATS },
  'merge': { report: undefined },
  // A plan over applies, ties first, at the cost of two runs: the natural run and one row that reverses every tie it can.
  'test': { strategy: 'applies', strength: 2, budget: 2, report: 'reports/test' },
  // The `budget:` line of each scenario file written: a cover(3) plan of an app's ~30 entries fits, and a sweep stays short.
  'snapshots': { budget: 24 },
}

/** The defaults of `command`. */
export function defaultsOf(command: CommandName): Defaults {
  return { ...DEFAULTS, ...COMMAND_DEFAULTS[command] }
}

/** The defaults the strategies and the runtime apply themselves, for help and documentation. */
export const APPLIED_DEFAULTS = {
  depth: DEFAULT_DEPTH,
  strength: DEFAULT_STRENGTH,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  applicationTimeoutMs: APPLICATION_TIMEOUT_MS,
} as const
