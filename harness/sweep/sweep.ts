import type { Scenario } from '../scenario/scenario.ts'
import type { Report } from '../report/sweep-report.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { Settings } from '../settings/settings.ts'
import { loadTarget } from '../targets/index.ts'
import { targetNamed } from '../targets/registry.ts'
import type { GoldenPolicy } from '../goldens/golden.ts'
import { obsoleteGoldens } from '../goldens/obsolete.ts'
import { enveloped } from '../report/envelope.ts'
import { resultOf } from '../report/present.ts'
import { endReport, type Reporter } from '../report/reporter.ts'
import { explore } from '../explore/explore.ts'
import { judge } from '../judge/judge.ts'
import { RunCache } from '../runners/run-cache.ts'
import type { Runner } from '../runners/runner.ts'
import type { Runners } from '../runners/by-host.ts'
import type { HostRun } from '../judge/host-comparison.ts'
import { unmetRequirement } from '../hosts/requirements.ts'
import { CURRENT_HOST, isCurrentProcess, node22Binary, nodeBinaryOf, parseHost, type Host } from '../hosts/host.ts'
import type { Space } from '../space/space.ts'
import { onHost, withOverrides } from '../scenario/overrides.ts'
import { emptyShardReport, internalErrorReport, skippedReport } from '../judge/scenario-report.ts'
import { planFor } from '../explore/plan.ts'
import { formatShard } from '../settings/shard.ts'

/** The settings a sweep reads. */
export type SweepSettings = Pick<Settings, 'strategy' | 'budget' | 'seed' | 'depth' | 'strength' | 'variant' | 'target' | 'shard' | 'hosts' | 'workers'>

/** How a scenario is swept besides its settings: where it runs, what it is told, what it may do with goldens. */
export interface SweepRun {
  /** The runner on this process's own host. */
  runner: Runner
  /** Runners of other hosts; without them every scenario runs on this process's own host. */
  runners?: Runners
  signal?: AbortSignal
  onProgress?: (scenario: Scenario, explored: number, planned: number) => void
  /** Golden policy; undefined: no golden checks. */
  goldens?: GoldenPolicy
  /** What the caller decides itself over the settings: the matrix's variant, a comparison's target. */
  overrides?: Pick<Settings, 'variant' | 'target'>
}

/** How `sweep` runs its scenarios, besides how it sweeps each. */
export interface SweepAllRun extends SweepRun {
  /** Told as the sweep goes: its start, each scenario's progress and entry, why it stopped early, its end. */
  reporters?: readonly Reporter[]
  /** Stop after the first scenario that fails (the report says complete: false). */
  bail?: boolean
}

/**
 * The hosts a scenario runs on: `hosts` when given (the first explores and
 * is judged; the others run the same plan and are compared with it); else
 * the scenario's own `host:`; else a `dsh` scenario on Node 22 when it is
 * installed and runners of other hosts are available (dsh's own runtime);
 * else this process's own host.
 */
export function hostsOf(scenario: Scenario, hosts: readonly Host[] | undefined, withRunners: boolean): readonly Host[] {
  if (hosts !== undefined && hosts.length > 0) return hosts
  if (scenario.host !== undefined) return [parseHost(scenario.host)]
  const preferred = targetNamed(scenario.target).preferredHost
  const host = preferred && parseHost(preferred.name)
  if (host && withRunners && (host.runtime === 'current' || node22Binary() !== undefined)) return [host]
  return [CURRENT_HOST]
}

/** The scenario as the settings and the caller's own overrides have it run. */
function overridden(original: Scenario, settings: Pick<Settings, 'variant' | 'target'>, run: Pick<SweepRun, 'overrides'>): Scenario {
  return withOverrides(withOverrides(original, settings), run.overrides ?? {})
}

/** Why `host` cannot run here, or undefined when it can; `fresh`: every interleaving needs a process of its own. */
function hostProblem(host: Host, runners: Runners | undefined, fresh: boolean): string | undefined {
  if (fresh && runners?.fresh === undefined) return 'it runs every interleaving in a process of its own (process: fresh), and this sweep runs in this process only'
  const withRunners = runners !== undefined
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
export async function sweepScenario(original: Scenario, settings: SweepSettings, run: SweepRun): Promise<ScenarioReport> {
  const started = Date.now()
  const scenario = overridden(original, settings, run)
  const target = await loadTarget(scenario.target)
  const reason = target.unsupported(scenario) ?? (scenario.requires === undefined ? undefined : unmetRequirement(scenario.requires))
  if (reason !== undefined) return skippedReport(scenario, settings.strategy, reason)
  const hosts = hostsOf(scenario, settings.hosts, run.runners !== undefined)
  const fresh = scenario.process === 'fresh'
  const unavailable = hosts.map(host => hostProblem(host, run.runners, fresh)).find(problem => problem !== undefined)
  if (unavailable !== undefined) return skippedReport(scenario, settings.strategy, unavailable)
  const runnerOf = (host: Host) => fresh ? run.runners!.fresh!(host) : isCurrentProcess(host) ? run.runner : run.runners!.of(host)
  const compare = hosts.length > 1
  const explored = async (host: Host, space?: Space) => {
    const onThisHost = onHost(scenario, host)
    const exploration = await explore(onThisHost, runnerOf(host), settings, {
      byPosition: compare,
      space,
      signal: run.signal,
      onProgress: (count, planned) => run.onProgress?.(scenario, count, planned),
    })
    return { scenario: onThisHost, exploration, cache: new RunCache(runnerOf(host), onThisHost) }
  }
  const first = await explored(hosts[0]!)
  // A plan smaller than the shard count leaves some shards without any of its interleavings: nothing to judge there.
  if (settings.shard !== undefined && first.exploration.ran === 0 && run.signal?.aborted !== true) {
    const planned = planFor(first.scenario, settings, first.exploration.space).schedules.length
    return emptyShardReport(first.scenario, settings.strategy, formatShard(settings.shard), planned, first.exploration.size.toString(), hosts.map(host => host.name))
  }
  const otherHosts: HostRun[] = []
  // Every other host runs the plan of the space the first host discovered, so positions compare.
  for (const host of hosts.slice(1)) otherHosts.push(await explored(host, first.exploration.space))
  return judge(original, first.scenario, first.exploration, {
    strategy: settings.strategy,
    runner: runnerOf(hosts[0]!),
    goldens: run.goldens,
    hostNames: hosts.map(host => host.name),
    otherHosts,
    interrupted: run.signal?.aborted === true,
    sharded: settings.shard !== undefined,
  }, started)
}

/** What the report's header records about how a sweep ran. */
export type ReportSettings = Pick<Settings, 'strategy' | 'seed' | 'budget' | 'depth' | 'strength' | 'shard' | 'workers' | 'hosts'>

/** A report around scenario entries: the run options and the summary counts (for a sweep, or merged shards). */
export function assembleReport(reports: ScenarioReport[], settings: ReportSettings, complete: boolean, durationMs: number): Report {
  return enveloped('sweep', {
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
 * Sweeps scenarios one after another, telling `reporters` as it goes, and
 * assembles the report; the reporters' files are written and their `onEnd`
 * called before it resolves. A scenario whose exploring or judging throws
 * gets verdict `error` with the message and the sweep goes on. Stops early
 * (and marks the report incomplete) when the signal aborts, or under `bail`
 * after a failed scenario that is not the last.
 */
export async function sweep(scenarios: readonly Scenario[], settings: SweepSettings, run: SweepAllRun): Promise<Report> {
  const started = Date.now()
  const reporters = run.reporters ?? []
  const reports: ScenarioReport[] = []
  const scenarioRun: SweepRun = {
    runner: run.runner,
    runners: run.runners,
    signal: run.signal,
    goldens: run.goldens,
    overrides: run.overrides,
    onProgress: (scenario, explored, planned) => {
      run.onProgress?.(scenario, explored, planned)
      for (const reporter of reporters) reporter.onProgress?.(scenario, explored, planned)
    },
  }
  let bailed = false
  for (const reporter of reporters) reporter.onStart?.(scenarios.map(scenario => scenario.name))
  for (const scenario of scenarios) {
    if (run.signal?.aborted || bailed) break
    for (const reporter of reporters) reporter.onScenarioStart?.(scenario)
    const begun = Date.now()
    let entry: ScenarioReport
    try {
      entry = await sweepScenario(scenario, settings, scenarioRun)
    } catch (error) {
      // One scenario's internal failure is its verdict, not the end of the sweep.
      entry = internalErrorReport(overridden(scenario, settings, run), settings.strategy, error, Date.now() - begun)
    }
    reports.push(entry)
    for (const reporter of reporters) reporter.onScenarioJudged?.(entry)
    // After the last scenario there is nothing left to skip: the sweep is complete.
    bailed = run.bail === true && resultOf(entry) === 'failed' && reports.length < scenarios.length
  }
  const interrupted = run.signal?.aborted === true
  const complete = !interrupted && !bailed && reports.length === scenarios.length
  const report = assembleReport(reports, settings, complete, Date.now() - started)
  if (run.goldens?.ci && complete && !settings.shard) {
    const obsolete = await obsoleteGoldens(scenarios, run.goldens)
    if (obsolete.length > 0) report.obsoleteGoldens = obsolete
  }
  if (interrupted || bailed) for (const reporter of reporters) reporter.onInterrupted?.(interrupted ? 'interrupted' : 'bail')
  await endReport(reporters, report)
  return report
}
