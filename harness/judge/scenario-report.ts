import type { Scenario } from '../scenario/types.ts'
import type { GoldenStatus, ReportOutput, ScenarioReport } from '../report/types.ts'
import { formatGuarantee } from '../strategies/index.ts'
import type { Analysis } from './analyze.ts'
import { tokenOf } from './analyze.ts'
import { replayableSchedule } from '../runners/runner.ts'
import type { Exploration } from '../explore/explore.ts'
import { spaceOfScenario } from '../explore/explore.ts'
import { spaceSize, type Space } from '../space/space.ts'

/** The operations of `space` the scenario file does not declare, in chain order. */
function discoveredOps(scenario: Scenario, space: Space): string[] {
  const declared = new Set(spaceOfScenario(scenario).chains.flatMap(chain => chain.ops))
  return space.chains.flatMap(chain => chain.ops).filter(op => !declared.has(op))
}

export interface ScenarioVerdictInput {
  scenario: Scenario
  /** The hosts every interleaving ran on, the first host first. */
  hosts: string[]
  strategy: string
  exploration: Exploration
  analysis: Analysis
  problems: string[]
  golden: { status: GoldenStatus, file?: string, diff?: string }
  durationMs: number
}

/** The common outcome of all interleavings, or `mixed`. */
function outcomeOf(exploration: Exploration): string {
  const outcomes = new Set(exploration.outputs.map(group => group.first.outcome))
  if (outcomes.size === 1) return [...outcomes][0]!
  return outcomes.size === 0 ? 'none' : 'mixed'
}

/** One scenario's entry of the report. */
export function scenarioReport(input: ScenarioVerdictInput): ScenarioReport {
  const { scenario, exploration, analysis } = input
  const outputs: ReportOutput[] = exploration.outputs.map(group => ({
    hash: group.hash,
    count: group.count,
    first: group.first.index,
    token: tokenOf(scenario, replayableSchedule(group.first)),
    tools: group.first.tools,
  }))
  const goldenFailed = input.golden.status === 'mismatch' || input.golden.status === 'missing'
  const problems = [...input.problems]
  if (input.golden.status === 'mismatch') problems.push('the canonical projection differs from its golden (accept the new bytes with --update-goldens, or -u)')
  if (input.golden.status === 'missing') problems.push('no golden pinned for this scenario (run with --update-goldens to write it)')
  const report: ScenarioReport = {
    name: scenario.name,
    file: scenario.file,
    variant: scenario.variant,
    target: scenario.target,
    plugins: scenario.plugins.length,
    space: exploration.size.toString(),
    discovered: discoveredOps(scenario, exploration.space),
    planned: exploration.planned,
    explored: exploration.explored,
    ...exploration.coverage ? { coverage: exploration.coverage } : {},
    ...exploration.deviations ? { deviations: { count: exploration.deviations.count, token: tokenOf(scenario, exploration.deviations.schedule), reason: exploration.deviations.reason } } : {},
    ...exploration.orders ? { orders: exploration.orders } : {},
    strategy: input.strategy,
    guarantee: formatGuarantee(exploration.guarantee),
    verdict: analysis.verdict,
    passed: problems.length === 0 && !goldenFailed,
    outcome: outcomeOf(exploration),
    distinctOutputs: outputs.length,
    outputs,
    divergence: analysis.divergence,
    hosts: [],
    golden: input.golden.status,
    expected: { outcome: scenario.expect.outcome, deterministic: scenario.expect.deterministic },
    problems,
    durationMs: input.durationMs,
  }
  if (analysis.uncontrolled !== null) report.uncontrolled = analysis.uncontrolled
  report.hosts = [...input.hosts]
  if (exploration.runtime !== undefined) report.runtime = exploration.runtime
  if (analysis.hostDifference !== undefined) report.hostDifference = analysis.hostDifference
  if (input.golden.file !== undefined) report.goldenFile = input.golden.file
  if (input.golden.diff !== undefined) report.goldenDiff = input.golden.diff
  return report
}

/** The fields of an entry for a scenario no interleaving of which was explored. */
function unexplored(scenario: Scenario, strategy: string): Omit<ScenarioReport, 'space' | 'verdict' | 'problems' | 'durationMs'> {
  return {
    name: scenario.name,
    file: scenario.file,
    variant: scenario.variant,
    target: scenario.target,
    plugins: scenario.plugins.length,
    discovered: [],
    planned: 0,
    explored: 0,
    strategy,
    guarantee: 'sampled',
    outcome: 'none',
    distinctOutputs: 0,
    outputs: [],
    divergence: null,
    hosts: [],
    golden: 'none',
    expected: { outcome: scenario.expect.outcome, deterministic: scenario.expect.deterministic },
  }
}

/**
 * The entry of a scenario the target cannot run: verdict `skipped` with the
 * reason, no `passed` (it neither passed nor failed), nothing explored.
 */
export function skippedReport(scenario: Scenario, strategy: string, reason: string): ScenarioReport {
  return { ...unexplored(scenario, strategy), space: '0', verdict: 'skipped', problems: [], skipped: reason, durationMs: 0 }
}

/**
 * The entry of a scenario whose exploring or judging failed inside loadrace:
 * verdict `error`, the message in `error` and among the problems. The sweep
 * goes on with the other scenarios and writes every report file; the
 * command exits 3.
 */
export function internalErrorReport(scenario: Scenario, strategy: string, error: unknown, durationMs: number): ScenarioReport {
  const message = error instanceof Error ? error.message : String(error)
  return {
    ...unexplored(scenario, strategy),
    space: spaceSize(spaceOfScenario(scenario)).toString(),
    verdict: 'error',
    passed: false,
    problems: [`internal error while judging this scenario: ${message}`],
    error: message,
    durationMs,
  }
}
