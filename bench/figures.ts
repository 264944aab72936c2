/**
 * The raw figures of one bench run, as `reports/bench.json` holds them, and
 * the targets they are judged against.
 */

/** Where the bench ran. */
export interface MachineInfo {
  cpuModel: string
  cores: number
  node: string
  platform: string
  /** Load averages (1, 5, 15 min) when the run started: how shared the machine was. */
  loadAverage: [number, number, number]
}

/** `SystemPrompt.assemble()` against its floor at one tool count. */
export interface AssemblyFigure {
  tools: number
  /** Whether a `toolOrder` listing half the tools (plus the rest entry) was configured. */
  toolOrder: boolean
  floorUsPerTool: number
  assembleUsPerTool: number
  /** assemble / floor. */
  ratio: number
}

/** One way of booting the same composition, and its cost against the floor. */
export interface BootVariant {
  name: string
  /** What it does, in a few words. */
  what: string
  /** CPU milliseconds per run. */
  msPerRun: number
  /** Against the first variant (the floor). */
  ratio: number
}

/** One harness interleaving against plain `ctx.plugin()` boots of the same composition. */
export interface InterleavingFigures {
  scenario: string
  plugins: number
  /** The floor first, the full harness interleaving last. */
  variants: BootVariant[]
  /** Harness interleaving / floor. */
  ratio: number
  /** Sequential interleavings per wall-clock second on one core. */
  perSecond: number
  /** Interleavings per CPU second. */
  perCpuSecond: number
}

/** One timed sweep. */
export interface SweepRun {
  workers: number
  runner: 'in-process' | 'worker-pool'
  interleavings: number
  seconds: number
  perSecond: number
  /** Process CPU seconds per wall second during the sweep: the cores it actually got. */
  coresUsed: number
}

/** The same exhaustive sweep on one and on two workers. */
export interface ScaleOutFigures {
  scenario: string
  runs: SweepRun[]
  /** `--workers 2` (pool of 2) over `--workers 1` (in process), as the CLI runs them. */
  scaling: number
  /** Pool of 2 over pool of 1: the threads' scaling without the in-process/pool difference. */
  poolScaling: number
  /** Pure arithmetic on two threads over one, measured right after: what the machine offered. */
  machineScaling: number
}

/** Resident memory around one exhaustive sweep in one process. */
export interface MemoryFigures {
  scenario: string
  interleavings: number
  rssBeforeMb: number
  rssAfterMb: number
  /** After minus before, both after forced GC, with the sweep's report still alive. */
  growthMb: number
  heapUsedGrowthMb: number
  seconds: number
}

/** The planted order bugs. */
export type BugId = 'depth-2' | 'depth-3'

/** One planted bug and where it lives. */
export interface PlantedBug {
  id: BugId
  scenario: string
  plugins: number
  /** What the bug is, in one line. */
  what: string
}

/** One strategy against one bug over every seed. */
export interface PowerRow {
  /** `cover (t=3)`, `pct (d=3)`, `fast-check fc.scheduler`, … */
  strategy: string
  bug: BugId
  trials: number
  /** Trials whose first divergence came within the budget. */
  detected: number
  /** detected / trials. */
  rate: number
  /** Interleavings to the first divergence over all trials; null when that percentile was not reached within the budget. */
  median: number | null
  p95: number | null
  max: number | null
  /** How many interleavings the strategy's plan held (min and max over seeds), when it plans at all. */
  planned: { min: number, max: number } | null
}

/** The headline table. */
export interface PowerFigures {
  /** Interleavings each trial may spend. */
  budget: number
  seeds: number
  bugs: PlantedBug[]
  rows: PowerRow[]
  seconds: number
}

/** Covering-set sizes at one plugin count. */
export interface CoverageRow {
  plugins: number
  t2: number
  t3: number
  /** n! as a decimal string (it outgrows doubles' exact range). */
  factorial: string
}

/** One delay a plugin awaits before registering, swept again and again. */
export interface TimerStabilityRow {
  ms: number
  runs: number
  /** How many different (verdict, outputs) results the runs gave. */
  distinctResults: number
  verdicts: string[]
}

/** Whether sweeps of plugins that await timers give the same verdict on every run. */
export interface TimerStabilityFigures {
  rows: TimerStabilityRow[]
  /** Every delay: one result over all runs, and it is `divergent` (the race the held timer exposes). */
  stable: boolean
}

/** The ids of the bench targets, in report order. */
export const TARGET_IDS = [
  'assembly-ratio',
  'assembly-ratio-toolorder',
  'interleaving-overhead',
  'workers-scaling',
  'sweep-memory-growth',
  'cover-t3-n10',
  'cover-t3-n16',
  'cover-detects-depth2',
  'cover-detects-depth3',
  'auto-detects-both',
  'timer-verdicts-stable',
] as const

export type TargetId = typeof TARGET_IDS[number]

/** One target: the measured value (null when its section did not run), the bound, and whether it holds. */
export interface TargetResult {
  id: TargetId
  measured: number | null
  target: number
  unit: string
  met: boolean
}

/** Everything one run measured. Sections that did not run are null. */
export interface BenchFigures {
  startedAt: string
  /** Wall-clock seconds of the whole run. */
  wallSeconds: number
  machine: MachineInfo
  assembly: AssemblyFigure[] | null
  interleaving: InterleavingFigures | null
  scaleOut: ScaleOutFigures | null
  memory: MemoryFigures | null
  power: PowerFigures | null
  coverage: CoverageRow[] | null
  timers: TimerStabilityFigures | null
}
