import { middleHalf, roundRatios } from './clock.ts'
import { REAL_APP_SCENARIO, type BenchFigures, type BootVariant, type BugId, type ReportedFigure, type ReportedId, type TargetId, type TargetResult } from './figures.ts'

/** The strategy label of the covering strategy at strength 3 in the power table. */
export const COVER_T3 = 'cover (t=3)'
/** The strategy label of `auto` in the power table. */
export const AUTO = 'auto'

/** How a target bounds its figure. */
interface TargetRule {
  id: TargetId
  /** `at-most`: measured ≤ target; `at-least`: measured ≥ target. */
  bound: 'at-most' | 'at-least'
  target: number
  unit: string
  measure: (figures: BenchFigures) => number | null
  /** For a ratio of two boots: the measured side and the reference side (each timed under its own `Error.stackTraceLimit`). */
  sides?: (figures: BenchFigures) => [BootVariant | undefined, BootVariant | undefined] | undefined
  /** For a figure measured in rounds other than a boot ratio's: the middle half of the rounds' own figures. */
  rounds?: (figures: BenchFigures) => TargetResult['rounds']
}

/** The harness variant and the real loader (imports at once) of a comparison. */
function harnessOverLoader(variants: readonly BootVariant[] | undefined): [BootVariant | undefined, BootVariant | undefined] | undefined {
  if (variants === undefined) return undefined
  return [variants.find(variant => variant.name === 'harness'), variants.find(variant => variant.name === 'real loader')]
}

function maxOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : Math.max(...values)
}

function assemblyRatio(figures: BenchFigures, toolOrder: boolean): number | null {
  return maxOf((figures.assembly ?? []).filter(figure => figure.toolOrder === toolOrder).map(figure => figure.ratio))
}

function coverSize(figures: BenchFigures, plugins: number): number | null {
  return figures.coverage?.sizes.find(row => row.plugins === plugins)?.t3 ?? null
}

/** Detection rate of `strategy` on `bug`, in percent. */
function detectionRate(figures: BenchFigures, strategy: string, bug: BugId): number | null {
  const row = figures.power?.rows.find(candidate => candidate.strategy === strategy && candidate.bug === bug)
  return row === undefined ? null : row.rate * 100
}

function lowest(values: readonly (number | null)[]): number | null {
  return values.some(value => value === null) ? null : Math.min(...values as number[])
}

/** Helper stays up / helper exits on runner `index` (0: in process, 1: worker processes). */
function helperRatio(figures: BenchFigures, index: number): number | null {
  return figures.helper?.runners[index]?.ratio ?? null
}

const RULES: readonly TargetRule[] = [
  { id: 'assembly-ratio', bound: 'at-most', target: 1.5, unit: '× floor (worst T)', measure: figures => assemblyRatio(figures, false) },
  { id: 'assembly-ratio-toolorder', bound: 'at-most', target: 1.5, unit: '× floor (worst T)', measure: figures => assemblyRatio(figures, true) },
  { id: 'interleaving-overhead-loader', bound: 'at-most', target: 1.3, unit: '× the real loader (imports at once)', measure: figures => figures.interleaving?.loaderRatio ?? null, sides: figures => harnessOverLoader(figures.interleaving?.variants) },
  { id: 'real-interleaving-overhead', bound: 'at-most', target: 1.3, unit: '× the real loader (imports at once)', measure: figures => figures.real?.overhead ?? null, sides: figures => harnessOverLoader(figures.real?.variants) },
  { id: 'workspace-interleaving-overhead', bound: 'at-most', target: 1.3, unit: '× dsh\'s own loader (imports at once) and turn', measure: figures => figures.workspace?.overhead ?? null, sides: figures => harnessOverLoader(figures.workspace?.variants) },
  { id: 'workers-efficiency', bound: 'at-least', target: 0.95, unit: '× the two-stream ceiling', measure: figures => figures.scaleOut?.synthetic.efficiency ?? null, rounds: figures => figures.scaleOut?.synthetic.efficiencyRounds },
  { id: 'real-workers-efficiency', bound: 'at-least', target: 0.95, unit: '× the two-stream ceiling', measure: figures => figures.scaleOut?.real.efficiency ?? null, rounds: figures => figures.scaleOut?.real.efficiencyRounds },
  { id: 'sweep-memory-growth', bound: 'at-most', target: 50, unit: 'MB RSS', measure: figures => figures.memory?.synthetic.growthMb ?? null },
  { id: 'real-memory-growth', bound: 'at-most', target: 100, unit: 'MB RSS', measure: figures => figures.memory?.real.growthMb ?? null },
  { id: 'cover-t3-n10', bound: 'at-most', target: 16, unit: 'interleavings', measure: figures => coverSize(figures, 10) },
  { id: 'cover-t3-n16', bound: 'at-most', target: 24, unit: 'interleavings', measure: figures => coverSize(figures, 16) },
  { id: 'cover-detects-depth2', bound: 'at-least', target: 100, unit: '% of seeds', measure: figures => detectionRate(figures, COVER_T3, 'depth-2') },
  { id: 'cover-detects-depth3', bound: 'at-least', target: 100, unit: '% of seeds', measure: figures => detectionRate(figures, COVER_T3, 'depth-3') },
  {
    id: 'auto-detects-both',
    bound: 'at-least',
    target: 100,
    unit: '% of seeds (lower of the two bugs)',
    measure: figures => lowest([detectionRate(figures, AUTO, 'depth-2'), detectionRate(figures, AUTO, 'depth-3')]),
  },
  {
    id: 'timer-verdicts-stable',
    bound: 'at-least',
    target: 100,
    unit: '% of delays (0, 1, 3, 20 ms) with one divergent result over every run',
    measure: figures => figures.timers === null ? null : (100 * figures.timers.rows.filter(row => row.distinctResults === 1 && row.verdicts.join() === 'divergent').length) / figures.timers.rows.length,
  },
  { id: 'helper-wait-in-process', bound: 'at-most', target: 1.5, unit: '× an exiting helper (a long-lived one, wall ms per interleaving, in process)', measure: figures => helperRatio(figures, 0) },
  { id: 'helper-wait-workers', bound: 'at-most', target: 1.5, unit: '× an exiting helper (a long-lived one, wall ms per interleaving, 2 worker processes)', measure: figures => helperRatio(figures, 1) },
  { id: 'helper-processes-left', bound: 'at-most', target: 0, unit: 'helper processes alive after the section', measure: figures => figures.helper?.helpersAlive ?? null },
  { id: 'test-preload-overhead', bound: 'at-most', target: 1.05, unit: '× the same test without the preload, every process it starts preloaded, on Node 22 (wall clock)', measure: figures => figures.testMode?.preload.ratio ?? null },
  { id: 'test-tier-overhead', bound: 'at-most', target: 3, unit: '× one plain run of the tier (reference run, rows and reruns alone)', measure: figures => figures.testMode?.tier?.ratio ?? null },
  { id: 'test-unit-overhead', bound: 'at-most', target: 1.10, unit: '× the same spec file without loadrace: its tests boot a composition in vitest\'s own worker, instrumented through the wrapping config and following a row, on Node 22 (wall clock)', measure: figures => figures.testMode?.unitPreload?.ratio ?? null },
  { id: 'test-unit-tier-overhead', bound: 'at-most', target: 3, unit: '× one plain run of the unit spec files that boot a loader (natural run, rows and reruns alone)', measure: figures => figures.testMode?.unitTier?.ratio ?? null },
]

/** How a reported (not judged) figure is read from the figures. */
interface ReportedRule {
  id: ReportedId
  unit: string
  measure: (figures: BenchFigures) => number | null
}

const REPORTED: readonly ReportedRule[] = [
  { id: 'interleaving-overhead', unit: '× a plain ctx.plugin() boot (synthetic)', measure: figures => figures.interleaving?.ratio ?? null },
  { id: 'workers-scaling', unit: '× --workers 1 throughput (synthetic)', measure: figures => figures.scaleOut?.synthetic.scaling ?? null },
  { id: 'worker-process-efficiency', unit: '× the two-stream ceiling, two streams each running in a worker process (synthetic)', measure: figures => figures.scaleOut?.synthetic.workerProcessEfficiency ?? null },
  { id: 'pool-efficiency', unit: '× two worker streams, one pool for both workers (synthetic)', measure: figures => figures.scaleOut?.synthetic.poolEfficiency ?? null },
  { id: 'real-throughput', unit: 'interleavings per CPU second (real application)', measure: figures => figures.real?.throughput.perCpuSecond ?? null },
  { id: 'real-heap-growth', unit: 'MB live heap (real application)', measure: figures => figures.memory?.real.heapUsedGrowthMb ?? null },
  {
    id: 'cover-t3-real',
    unit: 'interleavings (cover(3) over the real application\'s discovered space)',
    measure: figures => figures.coverage?.discovered.find(row => row.scenario === REAL_APP_SCENARIO)?.t3 ?? null,
  },
  { id: 'test-tier-runs', unit: 'runs of the command plus reruns alone (loadrace test, default plan)', measure: figures => figures.testMode?.tier == null ? null : figures.testMode.tier.runs + figures.testMode.tier.reruns },
  { id: 'test-preload-boot-overhead', unit: '× one bare process boot without the preload, on Node 22', measure: figures => figures.testMode?.preloadBoot.ratio ?? null },
  { id: 'test-preload-overhead-node20', unit: '× one bare process boot without the preload, on Node 20 (module hooks in a thread of their own)', measure: figures => figures.testMode?.preloadNode20?.ratio ?? null },
]

/** The reported figures, in `REPORTED_IDS` order; a figure whose section did not run is null. */
export function reportedOf(figures: BenchFigures): ReportedFigure[] {
  return REPORTED.map(rule => ({ id: rule.id, measured: rule.measure(figures), unit: rule.unit }))
}

/** `≤` or `≥`: how the target of `id` bounds its figure. */
export function boundSymbol(id: TargetId): '≤' | '≥' {
  return RULES.find(rule => rule.id === id)?.bound === 'at-least' ? '≥' : '≤'
}

/**
 * Judges the figures against every target, in `TARGET_IDS` order; a target whose section did not run is not met, nor is
 * a ratio whose two sides were not timed under one and the same `Error.stackTraceLimit` (a side with the system's stack
 * captures off is flattered), and the limit of each side is stated with it.
 */
export function targetsOf(figures: BenchFigures): TargetResult[] {
  return RULES.map((rule) => {
    const measured = rule.measure(figures)
    const sides = measured === null ? undefined : rule.sides?.(figures)
    const stackTraceLimit = sides && { measured: sides[0]?.stackTraceLimit ?? null, reference: sides[1]?.stackTraceLimit ?? null }
    const comparable = stackTraceLimit === undefined || (stackTraceLimit.measured !== null && stackTraceLimit.measured === stackTraceLimit.reference)
    const met = measured !== null && comparable && (rule.bound === 'at-most' ? measured <= rule.target : measured >= rule.target)
    const rounds = measured === null ? undefined : sides ? spreadOf(sides) : rule.rounds?.(figures)
    return { id: rule.id, measured, target: rule.target, unit: rule.unit, met, ...stackTraceLimit === undefined ? {} : { stackTraceLimit }, ...rounds === undefined ? {} : { rounds } }
  })
}

/** The middle half of a boot ratio's per-round ratios, when both sides were timed in the same rounds. */
function spreadOf([measured, reference]: [BootVariant | undefined, BootVariant | undefined]): TargetResult['rounds'] {
  if (measured?.perRound === undefined || reference?.perRound === undefined) return undefined
  const ratios = roundRatios({ perRound: measured.perRound }, { perRound: reference.perRound })
  return ratios.length === 0 ? undefined : { ...middleHalf(ratios), count: ratios.length }
}
