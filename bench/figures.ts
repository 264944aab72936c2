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
  /** The `Error.stackTraceLimit` in force while it was timed (null: it changed): every variant of a comparison runs under the same one. */
  stackTraceLimit: number | null
  /** CPU milliseconds per run in each round, the rounds side by side with the other variants' (absent in reports written before it was recorded). */
  perRound?: number[]
}

/** Stack captures per run of the harness interleaving and of the real loader's boot (imports at once). */
export interface CaptureFigures {
  harness: number
  loader: number
  /** The harness's own, by reading site (`prop file caller`), per run. */
  loadrace: Record<string, number>
}

/** One harness interleaving against plain `ctx.plugin()` boots of the same composition. */
export interface InterleavingFigures {
  scenario: string
  plugins: number
  /** The floor first, the full harness interleaving last. */
  variants: BootVariant[]
  /** Harness interleaving / floor. */
  ratio: number
  /** Harness interleaving / the real loader with every import settled at once. */
  loaderRatio: number
  /** Who the harness interleaving's CPU time goes to (a V8 sampling profile), largest first. */
  owners: OwnerTime[]
  /** Stack captures cordis's context proxy makes per run (see `captures.ts`): a count, the same on a loaded machine. */
  captures: CaptureFigures
  /** Sequential interleavings per wall-clock second on one core. */
  perSecond: number
  /** Interleavings per CPU second. */
  perCpuSecond: number
}

/** How one configuration of the scale-out ran, best of its repeats. */
export interface StreamRun {
  /**
   * `one stream`: one `--workers 1` sweep alone; `two streams`: two of them at once, in two processes;
   * `two worker streams`: two processes at once, each running its interleavings in a worker process of its own; `--workers 2`.
   */
  configuration: 'one stream' | 'two streams' | 'two worker streams' | '--workers 2'
  /** Processes running interleavings. */
  processes: number
  /** Interleavings completed in the timed window (both processes together for two streams). */
  interleavings: number
  seconds: number
  /** Interleavings per wall-clock second (two streams: the sum of both). */
  perSecond: number
  /** Process CPU seconds per wall second, all processes together: the cores it actually got. */
  coresUsed: number
  /** CPU milliseconds (every thread of every process) per interleaving completed. */
  cpuMsPerInterleaving: number
}

/** `--workers 2` against one stream and against the machine's two-stream ceiling, on one scenario. */
export interface ScaleOutFigures {
  scenario: string
  /** One stream, two streams, two worker streams, `--workers 2`: each its best round (a round's two runs of it combined). */
  runs: StreamRun[]
  repeats: number
  /** `--workers 2` over one stream (`--workers 1`): the plain scaling. This and every ratio below: the median over the rounds of the ratio within each round. */
  scaling: number
  /** Two streams over one stream: what the machine gives two independent streams of this work. */
  ceilingScaling: number
  /** `--workers 2` over the two-stream ceiling. */
  efficiency: number
  /** Two worker streams over two streams: what running interleavings in a worker process costs, the pool's coordination aside. */
  workerProcessEfficiency: number
  /** `--workers 2` over two worker streams: what one pool coordinating both workers costs against two coordinating one each. */
  poolEfficiency: number
  /** The middle half of `--workers 2` over two streams within each round (both measured in it), and how many rounds. */
  efficiencyRounds?: { low: number, high: number, count: number }
}

/** Live heap and resident memory after forced GC at one point of a sweep. */
export interface MemoryCheckpoint {
  interleavings: number
  heapUsedMb: number
  rssMb: number
}

/** Resident memory around one sweep in one process. */
export interface MemoryFigures {
  scenario: string
  /** The strategy swept (`exhaustive` for the synthetic scenario, `auto` for the real application). */
  strategy: string
  interleavings: number
  rssBeforeMb: number
  rssAfterMb: number
  /** After minus before, both after forced GC, with the sweep's report still alive. */
  growthMb: number
  heapUsedGrowthMb: number
  /** After forced GC every tenth of the sweep (the first after warm-up, before the sweep). */
  checkpoints: MemoryCheckpoint[]
  seconds: number
}

/** CPU milliseconds of one part of an interleaving. */
export interface PhaseCost {
  phase: string
  /** What the part does, in a few words. */
  what: string
  /** Mean CPU ms per interleaving. */
  ms: number
}

/** One owner's share of an interleaving's CPU samples. */
export interface OwnerTime {
  owner: string
  /** Whether the owner is loadrace's own code (or runtime machinery only loadrace switches on). */
  loadrace: boolean
  /** Share of the non-idle samples, 0..1. */
  share: number
  /** That share of a mean interleaving's CPU time. */
  msPerRun: number
}

/** Interleavings per CPU second on the real application, and what they spend it on. */
export interface RealThroughput {
  /** Timed interleavings (the scenario's own plan, cycled). */
  interleavings: number
  perCpuSecond: number
  phases: PhaseCost[]
  /** From a CPU profile of the same interleavings, largest first. */
  owners: OwnerTime[]
  /** The largest loadrace-owned part of the profile. */
  largestOwn: string
}

/** The real application: one scheduled interleaving against the real loader's own boot, and its throughput. */
export interface RealAppFigures {
  scenario: string
  file: string
  target: string
  /** Loader entries (operations) of the discovered space. */
  entries: number
  /** Characters of one interleaving's projection (the bytes compared). */
  projectionChars: number
  /** The real loader (imports at once) first: every ratio is against it. */
  variants: BootVariant[]
  /** Harness / real loader (imports at once). */
  overhead: number
  throughput: RealThroughput
}

/** A scenario's discovered space and the cost of a cover(3) plan over it. */
export interface DiscoveredCoverageRow {
  scenario: string
  /** Operations the file declares (imports and batches). */
  declared: number
  /** Operations of the discovered space (timers joined). */
  operations: number
  chains: number
  /** Rows of the 3-way covering set, largest over the coverage seeds. */
  t3: number
  /** Interleavings `--strategy cover` plans over the discovered space (its row count). */
  planned: number
  /** (operations)! as a decimal string. */
  factorial: string
  /** Schedules of the discovered space (its chains' orders kept) as a decimal string. */
  size: string
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

/** One runner's wall time per interleaving of the helper scenarios (see bench/helper.ts). */
export interface HelperRunnerFigures {
  /** `in process` (one interleaving a call) or `2 worker processes` (an exhaustive sweep a call). */
  runner: string
  /** Wall-clock milliseconds per interleaving, median over rounds: without a helper, helper exits after "ready", helper stays up. */
  noHelperMs: number
  exitsMs: number
  staysMs: number
  /** Helper stays up / helper exits, median over rounds (each round times both side by side). */
  ratio: number
  /** Interleavings timed, over all rounds. */
  interleavings: { noHelper: number, exits: number, stays: number }
  rounds: number
}

/** Whether a long-lived helper process costs an interleaving an idle wait, on each runner. */
export interface HelperFigures {
  /** The scenarios (bench/scenarios/<name>.yml): no helper, helper exits, helper stays up. */
  scenarios: string[]
  /** In process, then on worker processes. */
  runners: HelperRunnerFigures[]
  /** Helper processes the section started (each noted its pid). */
  helpersStarted: number
  /** Of those, how many were alive after the section. */
  helpersAlive: number
}

/** The scenario name of the bundled real application (`apps/acp-agent/tools.yml`). */
export const REAL_APP_SCENARIO = 'acp-agent-tools'

/** The ids of the bench targets, in report order. */
export const TARGET_IDS = [
  'assembly-ratio',
  'assembly-ratio-toolorder',
  'interleaving-overhead-loader',
  'real-interleaving-overhead',
  'workspace-interleaving-overhead',
  'workers-efficiency',
  'real-workers-efficiency',
  'sweep-memory-growth',
  'real-memory-growth',
  'cover-t3-n10',
  'cover-t3-n16',
  'cover-detects-depth2',
  'cover-detects-depth3',
  'auto-detects-both',
  'timer-verdicts-stable',
  'helper-wait-in-process',
  'helper-wait-workers',
  'helper-processes-left',
  'test-preload-overhead',
  'test-tier-overhead',
  'test-unit-overhead',
  'test-unit-tier-overhead',
] as const

export type TargetId = typeof TARGET_IDS[number]

/** One target: the measured value (null when its section did not run), the bound, and whether it holds. */
export interface TargetResult {
  id: TargetId
  measured: number | null
  target: number
  unit: string
  met: boolean
  /** For a ratio of two boots: the `Error.stackTraceLimit` each side was timed under; a ratio whose sides differ (or changed it) is not met. */
  stackTraceLimit?: { measured: number | null, reference: number | null }
  /** For a ratio of two boots timed round by round, or a workers' efficiency: the middle half of the rounds' own ratios (a boot ratio is their median), and how many rounds. */
  rounds?: { low: number, high: number, count: number }
}

/** Figures the bench reports without judging them, in report order. */
export const REPORTED_IDS = [
  'interleaving-overhead',
  'workers-scaling',
  'worker-process-efficiency',
  'pool-efficiency',
  'real-throughput',
  'real-heap-growth',
  'cover-t3-real',
  'test-tier-runs',
  'test-preload-boot-overhead',
  'test-preload-overhead-node20',
] as const

export type ReportedId = typeof REPORTED_IDS[number]

/** One reported figure: the measured value (null when its section did not run). */
export interface ReportedFigure {
  id: ReportedId
  measured: number | null
  unit: string
}

/** Everything one run measured. Sections that did not run are null. */
export interface BenchFigures {
  startedAt: string
  /** Wall-clock seconds of the whole run. */
  wallSeconds: number
  machine: MachineInfo
  assembly: AssemblyFigure[] | null
  interleaving: InterleavingFigures | null
  real: RealAppFigures | null
  /** The unmodified ACP application of dsh 0.1.1-rc.2's built workspace, against the workspace's own loader (on Node 22). */
  workspace: RealAppFigures | null
  /** The synthetic sweep, then the real application. */
  scaleOut: { synthetic: ScaleOutFigures, real: ScaleOutFigures, machineScaling: number } | null
  memory: { synthetic: MemoryFigures, real: MemoryFigures } | null
  power: PowerFigures | null
  coverage: { sizes: CoverageRow[], discovered: DiscoveredCoverageRow[] } | null
  timers: TimerStabilityFigures | null
  /** A long-lived helper process against one that exits: wall time per interleaving, in process and on worker processes. */
  helper: HelperFigures | null
  /** `loadrace test`: the preload per process, and a whole test tier under the default plan. */
  testMode: TestModeFigures | null
}

/** What `loadrace test` costs (see bench/test-mode.ts). */
export interface TestModeFigures {
  /** One test as its suite runs it, every process preloaded, against the same command without the preload (wall clock, median over rounds). */
  preload: { command: string, node: string, withoutMs: number, withMs: number, ratio: number, rounds: number }
  /** One bare process boot on Node 22 with the preload against the same boot without it. */
  preloadBoot: { command: string, node: string, withoutMs: number, withMs: number, ratio: number, rounds: number }
  /** The same on Node 20, whose module hooks run in a thread of their own that every process starts. */
  preloadNode20: { command: string, node: string, withoutMs: number, withMs: number, ratio: number, rounds: number } | null
  /** A spec file whose tests boot a composition in vitest's own worker, instrumented and following a row, against the same command without loadrace. */
  unitPreload?: { command: string, node: string, withoutMs: number, withMs: number, ratio: number, rounds: number }
  /** The test tier under `loadrace test` (default plan, reruns included) against one plain run of it; null when only the `preload` section ran. */
  tier: TierFigures | null
  /** The same for the unit spec files that boot a loader in vitest's own workers. */
  unitTier?: TierFigures | null
}

/** A tier under `loadrace test` against one plain run of it. */
export interface TierFigures { tier: string, plainMs: number, loadraceMs: number, ratio: number, runs: number, reruns: number, tests: number, verdicts: Record<string, number> }
