import type { Scenario } from '../scenario/types.ts'
import type { Report, ScenarioReport } from '../report/types.ts'
import type { VariantName } from '../../src/variants/types.ts'
import type { TargetName } from '../targets/types.ts'
import { loadTarget } from '../targets/index.ts'
import type { Projection } from '../oracle/projection.ts'
import { checkGolden, goldenOf, type GoldenCheck, type GoldenPolicy } from '../goldens/golden.ts'
import { obsoleteGoldens } from '../goldens/obsolete.ts'
import { VERSION } from '../version.ts'
import { explore, type Exploration, type ExploreOptions } from './explore.ts'
import { analyze } from './analyze.ts'
import { expectationProblems } from './expectation.ts'
import { RunCache } from './hash-cache.ts'
import type { Runner } from './runner.ts'
import { internalErrorReport, scenarioReport, skippedReport } from './scenario-report.ts'
import { formatShard } from './shard.ts'

export interface SweepOptions extends Omit<ExploreOptions, 'onProgress'> {
  /** Run every scenario under this variant instead of its own. */
  variant?: VariantName
  /** Run every scenario against this target instead of its own. */
  target?: TargetName
  runner: Runner
  /** Reported in the report's options. */
  workers: number
  /** Golden policy; undefined: no golden checks. */
  goldens?: GoldenPolicy
  onScenario?: (scenario: Scenario) => void
  /** Called with each scenario's entry as soon as it is judged. */
  onJudged?: (entry: ScenarioReport) => void
  onProgress?: (scenario: Scenario, explored: number, planned: number) => void
}

/** A scenario with the sweep's overrides applied. */
export function withOverrides(scenario: Scenario, options: { variant?: VariantName, target?: TargetName }): Scenario {
  return { ...scenario, variant: options.variant ?? scenario.variant, target: options.target ?? scenario.target }
}

async function goldenFor(scenario: Scenario, overridden: boolean, projection: Projection, policy: GoldenPolicy | undefined): Promise<GoldenCheck> {
  if (!policy || scenario.target !== 'reference') return { status: 'none' }
  // Under an override the golden of the scenario's own policy is the reference point: compare, never write.
  const compareOnly = overridden || policy.compareOnly === true
  const check = await checkGolden(goldenOf(scenario.name, projection), scenario.file, compareOnly ? { ...policy, update: false, ci: true } : policy)
  return compareOnly && check.status === 'missing' ? { status: 'none' } : check
}

/** What judging an exploration needs besides the exploration itself. */
export interface JudgeOptions {
  strategy: string
  runner: Runner
  goldens?: GoldenPolicy
  /** The exploration was cut short: report it without replays or minimisation. */
  interrupted?: boolean
}

/**
 * Judges an exploration (fresh, or merged from shards): verdict with replays
 * and minimisation, expectation problems, golden check, report entry.
 */
export async function judge(original: Scenario, scenario: Scenario, exploration: Exploration, options: JudgeOptions, started = Date.now()): Promise<ScenarioReport> {
  const interrupted = options.interrupted === true
  const analysis = interrupted
    ? { verdict: exploration.outputs.length > 1 ? 'divergent' as const : 'deterministic' as const, divergence: null, uncontrolled: null, stuck: null }
    : await analyze(scenario, exploration, new RunCache(options.runner, scenario))
  const problems = expectationProblems(scenario, exploration, analysis)
  if (interrupted) problems.unshift('interrupted before the exploration finished')
  const overridden = scenario.variant !== original.variant || scenario.target !== original.target
  const golden = analysis.verdict === 'deterministic' && scenario.expect.deterministic && !interrupted
    ? await goldenFor(scenario, overridden, JSON.parse(exploration.outputs[0]!.json) as Projection, options.goldens)
    : { status: 'none' as const }
  return scenarioReport({ scenario, strategy: options.strategy, exploration, analysis, problems, golden, durationMs: Date.now() - started })
}

/** Sweeps one scenario: explore, then judge. */
export async function sweepScenario(original: Scenario, options: SweepOptions): Promise<ScenarioReport> {
  const started = Date.now()
  const scenario = withOverrides(original, options)
  const target = await loadTarget(scenario.target)
  const reason = target.unsupported(scenario)
  if (reason !== undefined) return skippedReport(scenario, options.strategy, reason)
  const exploration = await explore(scenario, options.runner, {
    ...options,
    onProgress: (explored, planned) => options.onProgress?.(scenario, explored, planned),
  })
  return judge(original, scenario, exploration, { ...options, interrupted: options.signal?.aborted === true }, started)
}

/** What the report's header records about how a sweep ran. */
export type ReportOptions = Pick<SweepOptions, 'strategy' | 'seed' | 'budget' | 'depth' | 'strength' | 'shard' | 'workers'>

/** A report around scenario entries: the run options and the summary counts (for a sweep, or merged shards). */
export function assembleReport(reports: ScenarioReport[], settings: ReportOptions, complete: boolean, durationMs: number): Report {
  return {
    tool: 'loadrace',
    version: VERSION,
    complete,
    options: {
      strategy: settings.strategy,
      seed: settings.seed,
      budget: settings.budget,
      depth: settings.depth ?? null,
      strength: settings.strength ?? null,
      shard: settings.shard ? formatShard(settings.shard) : null,
      workers: settings.workers,
    },
    scenarios: reports,
    summary: {
      scenarios: reports.length,
      passed: reports.filter(report => report.passed === true).length,
      failed: reports.filter(report => report.passed === false).length,
      skipped: reports.filter(report => report.verdict === 'skipped').length,
      interleavings: reports.reduce((total, report) => total + report.explored, 0),
      durationMs,
    },
  }
}

/**
 * Sweeps scenarios one after another and assembles the report. A scenario
 * whose exploring or judging throws gets verdict `error` with the message and
 * the sweep goes on. Stops early (and marks the report incomplete) when the
 * signal aborts.
 */
export async function sweep(scenarios: readonly Scenario[], options: SweepOptions): Promise<Report> {
  const started = Date.now()
  const reports: ScenarioReport[] = []
  for (const scenario of scenarios) {
    if (options.signal?.aborted) break
    options.onScenario?.(scenario)
    const begun = Date.now()
    let entry: ScenarioReport
    try {
      entry = await sweepScenario(scenario, options)
    } catch (error) {
      // One scenario's internal failure is its verdict, not the end of the sweep.
      entry = internalErrorReport(withOverrides(scenario, options), options.strategy, error, Date.now() - begun)
    }
    reports.push(entry)
    options.onJudged?.(entry)
  }
  const complete = !options.signal?.aborted && reports.length === scenarios.length
  const report = assembleReport(reports, options, complete, Date.now() - started)
  if (options.goldens?.ci && complete && !options.shard) {
    const obsolete = await obsoleteGoldens(scenarios, options.goldens)
    if (obsolete.length > 0) report.obsoleteGoldens = obsolete
  }
  return report
}
