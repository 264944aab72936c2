import type { Scenario } from '../scenario/types.ts'
import type { HostDifference } from '../verdict/verdict.ts'
import type { Report } from '../report/types.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { VariantName } from '../targets/catalogue.ts'
import type { TargetName } from '../targets/types.ts'
import { loadTarget } from '../targets/index.ts'
import { type Projection, parseProjection } from '../projection/projection.ts'
import { checkGolden, goldenOf, type GoldenCheck, type GoldenPolicy } from '../goldens/golden.ts'
import { obsoleteGoldens } from '../goldens/obsolete.ts'
import { enveloped } from '../report/envelope.ts'
import { explore } from '../explore/explore.ts'
import { type Exploration, type ExploreOptions } from '../explore/exploration.ts'
import { analyze } from '../judge/analyze.ts'
import { judgeSnapshot, snapshotProblem } from '../judge/snapshot.ts'
import type { Analysis } from '../verdict/verdict.ts'
import { expectationProblems } from '../judge/expectation.ts'
import { printedOutputs } from '../judge/system-output.ts'
import { RunCache } from '../runners/run-cache.ts'
import type { Runner } from '../runners/runner.ts'
import type { Runners } from '../runners/by-host.ts'
import type { HostRun } from '../judge/host-comparison.ts'
import { unmetRequirement } from '../hosts/requirements.ts'
import { CURRENT_HOST, isCurrentProcess, node22Binary, nodeBinaryOf, parseHost, type Host } from '../hosts/host.ts'
import type { Space } from '../space/space.ts'
import { onHost, withOverrides } from '../scenario/overrides.ts'
import { emptyShardReport, internalErrorReport, scenarioReport, skippedReport } from '../judge/scenario-report.ts'
import { planFor } from '../explore/plan.ts'
import { formatShard } from '../explore/shard.ts'

export interface SweepOptions extends Omit<ExploreOptions, 'onProgress'> {
  /** Run every scenario under this variant instead of its own. */
  variant?: VariantName
  /** Run every scenario against this target instead of its own. */
  target?: TargetName
  /** The runner on this process's own host. */
  runner: Runner
  /** Runners of other hosts; without them every scenario runs on this process's own host. */
  runners?: Runners
  /**
   * Run every scenario on these hosts (the first explores and is judged; the
   * others run the same plan and are compared with it). Default: the
   * scenario's own `host:`; else a `dsh` scenario on Node 22 when it is
   * installed and `runners` are given (dsh's own runtime); else this
   * process's own host.
   */
  hosts?: readonly Host[]
  /** Reported in the report's options. */
  workers: number
  /** Golden policy; undefined: no golden checks. */
  goldens?: GoldenPolicy
  onScenario?: (scenario: Scenario) => void
  /** Called with each scenario's entry as soon as it is judged. */
  onJudged?: (entry: ScenarioReport) => void
  onProgress?: (scenario: Scenario, explored: number, planned: number) => void
}

/** Said when a golden is not written because the scenario failed its expectation. */
export const GOLDEN_WITHHELD = 'the scenario did not meet its expectation; fix it (or its expect: block), then sweep again to write the golden'

/**
 * Compares the scenario's golden, or writes it: only when the scenario met
 * its expectation (`met`), so that a golden never pins the bytes of a failing
 * configuration.
 */
async function goldenFor(scenario: Scenario, overridden: boolean, projection: Projection, policy: GoldenPolicy | undefined, met: boolean): Promise<GoldenCheck> {
  if (!policy || scenario.target !== 'reference') return { status: 'none' }
  // Under an override the golden of the scenario's own policy is the reference point: compare, never write.
  const compareOnly = overridden || policy.compareOnly === true
  const check = await checkGolden(goldenOf(scenario.name, projection), scenario.file, compareOnly ? { ...policy, update: false, ci: true } : policy, met ? undefined : GOLDEN_WITHHELD)
  return compareOnly && (check.status === 'missing' || check.status === 'withheld') ? { status: 'none' } : check
}

/** An interrupted exploration, judged without replays or minimisation. */
function interruptedAnalysis(exploration: Exploration): Analysis {
  return exploration.outputs.length > 1 ? { verdict: 'divergent', divergence: null } : { verdict: 'deterministic' }
}

/** What judging an exploration needs besides the exploration itself. */
export interface JudgeOptions {
  strategy: string
  runner: Runner
  goldens?: GoldenPolicy
  /** The hosts the plan ran on, the first (`runner`'s) first; default this process's own. */
  hosts?: readonly string[]
  /** The same plan on the other hosts, to compare position by position; or the difference a shard of the sweep already found. */
  otherHosts?: readonly HostRun[] | HostDifference
  /** The exploration was cut short: report it without replays or minimisation. */
  interrupted?: boolean
  /** The exploration is one shard of a sweep: a race it does not hold is for the merge to find. */
  shard?: boolean
}

/**
 * Judges an exploration (fresh, or merged from shards): verdict with replays
 * and minimisation, expectation problems, golden check, report entry.
 */
export async function judge(original: Scenario, scenario: Scenario, exploration: Exploration, options: JudgeOptions, started = Date.now()): Promise<ScenarioReport> {
  const interrupted = options.interrupted === true
  const cache = new RunCache(options.runner, scenario)
  const analysis = interrupted
    ? interruptedAnalysis(exploration)
    : await analyze(scenario, exploration, cache, options.otherHosts)
  const snapshot = interrupted || analysis.verdict === 'error' ? undefined : await judgeSnapshot(scenario, exploration, cache)
  const problems = expectationProblems(scenario, exploration, analysis, { shard: options.shard === true })
  const snapshotFailure = snapshot && snapshotProblem(snapshot, { shard: options.shard === true })
  if (snapshotFailure !== undefined) problems.push(snapshotFailure)
  if (interrupted) problems.unshift('interrupted before the exploration finished')
  const overridden = scenario.variant !== original.variant || scenario.target !== original.target
  const golden = analysis.verdict === 'deterministic' && scenario.expect.deterministic && !interrupted
    ? await goldenFor(scenario, overridden, parseProjection(exploration.outputs[0]!.json), options.goldens, problems.length === 0)
    : { status: 'none' as const }
  const hosts = [...options.hosts ?? [scenario.runsOn ?? CURRENT_HOST.name]]
  const printed = printedOutputs(scenario, exploration, analysis, cache)
  return scenarioReport({ scenario, hosts, strategy: options.strategy, exploration, analysis, problems, golden, ...snapshot ? { snapshot } : {}, printed, durationMs: Date.now() - started })
}

/** The hosts a scenario runs on (see `SweepOptions.hosts`). */
export function hostsOf(scenario: Scenario, options: Pick<SweepOptions, 'hosts' | 'runners'>): readonly Host[] {
  if (options.hosts !== undefined && options.hosts.length > 0) return options.hosts
  if (scenario.host !== undefined) return [parseHost(scenario.host)]
  if (scenario.target === 'dsh' && options.runners !== undefined && node22Binary() !== undefined) return [parseHost('node22')]
  return [CURRENT_HOST]
}

/** Why `host` cannot run here, or undefined when it can. */
function hostProblem(host: Host, withRunners: boolean): string | undefined {
  if (isCurrentProcess(host)) return undefined
  if (!withRunners) return `it runs on host ${host.name}, and this sweep runs in this process only`
  try {
    nodeBinaryOf(host)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** Sweeps one scenario: explore, then judge. */
export async function sweepScenario(original: Scenario, options: SweepOptions): Promise<ScenarioReport> {
  const started = Date.now()
  const scenario = withOverrides(original, options)
  const target = await loadTarget(scenario.target)
  const reason = target.unsupported(scenario) ?? (scenario.requires === undefined ? undefined : unmetRequirement(scenario.requires))
  if (reason !== undefined) return skippedReport(scenario, options.strategy, reason)
  const hosts = hostsOf(scenario, options)
  const unavailable = hosts.map(host => hostProblem(host, options.runners !== undefined)).find(problem => problem !== undefined)
  if (unavailable !== undefined) return skippedReport(scenario, options.strategy, unavailable)
  const runnerOf = (host: Host) => isCurrentProcess(host) ? options.runner : options.runners!.of(host)
  const compare = hosts.length > 1
  const explored = async (host: Host, space?: Space) => {
    const onThisHost = onHost(scenario, host)
    const exploration = await explore(onThisHost, runnerOf(host), {
      ...options,
      byPosition: compare,
      ...space === undefined ? {} : { space },
      onProgress: (count, planned) => options.onProgress?.(scenario, count, planned),
    })
    return { scenario: onThisHost, exploration, cache: new RunCache(runnerOf(host), onThisHost) }
  }
  const first = await explored(hosts[0]!)
  // A plan smaller than the shard count leaves some shards without any of its interleavings: nothing to judge there.
  if (options.shard !== undefined && first.exploration.ran === 0 && options.signal?.aborted !== true) {
    const planned = planFor(first.scenario, { ...options, onProgress: undefined }, first.exploration.space).schedules.length
    return emptyShardReport(first.scenario, options.strategy, formatShard(options.shard), planned, first.exploration.size.toString(), hosts.map(host => host.name))
  }
  const otherHosts: HostRun[] = []
  // Every other host runs the plan of the space the first host discovered, so positions compare.
  for (const host of hosts.slice(1)) otherHosts.push(await explored(host, first.exploration.space))
  return judge(original, first.scenario, first.exploration, {
    ...options,
    runner: runnerOf(hosts[0]!),
    hosts: hosts.map(host => host.name),
    otherHosts,
    interrupted: options.signal?.aborted === true,
    shard: options.shard !== undefined,
  }, started)
}

/** What the report's header records about how a sweep ran. */
export type ReportSettings = Pick<SweepOptions, 'strategy' | 'seed' | 'budget' | 'depth' | 'strength' | 'shard' | 'workers' | 'hosts'>

/** A report around scenario entries: the run options and the summary counts (for a sweep, or merged shards). */
export function assembleReport(reports: ScenarioReport[], settings: ReportSettings, complete: boolean, durationMs: number): Report {
  return enveloped(undefined, {
    complete,
    options: {
      strategy: settings.strategy,
      seed: settings.seed,
      budget: settings.budget,
      depth: settings.depth ?? null,
      strength: settings.strength ?? null,
      shard: settings.shard ? formatShard(settings.shard) : null,
      workers: settings.workers,
      hosts: settings.hosts === undefined || settings.hosts.length === 0 ? null : settings.hosts.map(host => host.name),
    },
    body: { scenarios: reports },
    summary: {
      scenarios: reports.length,
      passed: reports.filter(report => report.passed === true).length,
      failed: reports.filter(report => report.passed === false).length,
      skipped: reports.filter(report => report.verdict === 'skipped').length,
      interleavings: reports.reduce((total, report) => total + report.explored, 0),
    },
    durationMs,
  })
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
