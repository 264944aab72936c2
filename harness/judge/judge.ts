import type { Scenario } from '../scenario/scenario.ts'
import type { Analysis, HostDifference } from '../verdict/verdict.ts'
import { type Projection, parseProjection } from '../projection/projection.ts'
import { checkGolden, goldenOf, type GoldenCheck, type GoldenPolicy } from '../goldens/golden.ts'
import type { Exploration } from '../explore/exploration.ts'
import { RunCache } from '../runners/run-cache.ts'
import type { Runner } from '../runners/runner.ts'
import type { Settings } from '../settings/settings.ts'
import { CURRENT_HOST } from '../hosts/host.ts'
import { targetNamed } from '../targets/registry.ts'
import { analyse } from './analyse.ts'
import { expectationProblems } from './expectation.ts'
import type { HostRun } from './host-comparison.ts'
import { scenarioReport, type ScenarioReport } from './scenario-report.ts'
import { judgeSnapshot, snapshotProblem } from './snapshot.ts'
import { printedOutputs } from './system-output.ts'

/** Said when a golden is not written because the scenario failed its expectation. */
export const GOLDEN_WITHHELD = 'the scenario did not meet its expectation; fix it (or its expect: block), then sweep again to write the golden'

/**
 * Compares the scenario's golden, or writes it: only when the scenario met
 * its expectation (`met`), so that a golden never pins the bytes of a failing
 * configuration.
 */
async function goldenFor(scenario: Scenario, overridden: boolean, projection: Projection, policy: GoldenPolicy | undefined, met: boolean): Promise<GoldenCheck> {
  if (!policy || !targetNamed(scenario.target).goldens) return { status: 'none' }
  // Under an override the golden of the scenario's own policy is the reference point: compare, never write.
  const compareOnly = overridden || policy.compareOnly === true
  const check = await checkGolden(goldenOf(scenario.name, projection), scenario.file, compareOnly ? { ...policy, updateGoldens: false, ci: true } : policy, met ? undefined : GOLDEN_WITHHELD)
  return compareOnly && (check.status === 'missing' || check.status === 'withheld') ? { status: 'none' } : check
}

/** An interrupted exploration, judged without replays or minimisation. */
function interruptedAnalysis(exploration: Exploration): Analysis {
  return exploration.outputs.length > 1 ? { verdict: 'divergent', divergence: null } : { verdict: 'deterministic' }
}

/** What judging an exploration needs besides the exploration itself. */
export interface JudgeContext {
  /** The strategy the exploration planned with, for the report entry. */
  strategy: Settings['strategy']
  runner: Runner
  /** The golden policy; undefined: no golden check. */
  goldens?: GoldenPolicy
  /** The names of the hosts the plan ran on, the first (`runner`'s) first; default this process's own. */
  hostNames?: readonly string[]
  /** The same plan on the other hosts, to compare position by position; or the difference a shard of the sweep already found. */
  otherHosts?: readonly HostRun[] | HostDifference
  /** The exploration was cut short: report it without replays or minimisation. */
  interrupted?: boolean
  /** The exploration is one shard of a sweep: a race it does not hold is for the merge to find. */
  sharded?: boolean
}

/**
 * Judges an exploration (fresh, or merged from shards): verdict with replays
 * and minimisation, expectation problems, golden check, report entry.
 */
export async function judge(original: Scenario, scenario: Scenario, exploration: Exploration, context: JudgeContext, started = Date.now()): Promise<ScenarioReport> {
  const interrupted = context.interrupted === true
  const cache = new RunCache(context.runner, scenario)
  const analysis = interrupted
    ? interruptedAnalysis(exploration)
    : await analyse(scenario, exploration, cache, context.otherHosts)
  const snapshot = interrupted || analysis.verdict === 'error' ? undefined : await judgeSnapshot(scenario, exploration, cache)
  const problems = expectationProblems(scenario, exploration, analysis, { shard: context.sharded === true })
  const snapshotFailure = snapshot && snapshotProblem(snapshot, { shard: context.sharded === true })
  if (snapshotFailure !== undefined) problems.push(snapshotFailure)
  if (interrupted) problems.unshift('interrupted before the exploration finished')
  const overridden = scenario.variant !== original.variant || scenario.target !== original.target
  const golden = analysis.verdict === 'deterministic' && scenario.expect.deterministic && !interrupted
    ? await goldenFor(scenario, overridden, parseProjection(exploration.outputs[0]!.json), context.goldens, problems.length === 0)
    : { status: 'none' as const }
  const hosts = [...context.hostNames ?? [scenario.runsOn ?? CURRENT_HOST.name]]
  const printed = printedOutputs(scenario, exploration, analysis, cache)
  return scenarioReport({ scenario, hosts, strategy: context.strategy, exploration, analysis, problems, golden, ...snapshot ? { snapshot } : {}, printed, durationMs: Date.now() - started })
}
