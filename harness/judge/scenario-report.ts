import type { Scenario } from '../scenario/scenario.ts'
import { formatGuarantee } from '../strategies/index.ts'
import type { Analysis } from '../verdict/verdict.ts'
import { tokenOf } from '../token.ts'
import { replayableSchedule } from '../runners/runner.ts'
import type { Exploration } from '../explore/exploration.ts'
import { spaceOfScenario } from '../explore/declared-space.ts'
import { spaceSize, type Space } from '../space/space.ts'
import type { GoldenStatus } from '../goldens/golden.ts'
import type { Divergence } from '../verdict/divergence.ts'
import type { HarnessFault, HostDifference, UncontrolledReplay, Verdict } from '../verdict/verdict.ts'
import type { RanOn } from '../system/system.ts'
import type { SnapshotFinding } from './snapshot.ts'
import type { PrintedOutput } from './system-output.ts'

/** One distinct output (projection) and the interleavings that produced it. */
export interface ReportOutput {
  /** sha256 (hex) of the projection's JSON: the name of the output. */
  hash: string
  /** How many explored interleavings produced it. */
  count: number
  /** Exploration position (0-based, in the unsharded plan) of the first interleaving that produced it. */
  first: number
  /** Replay token of the first interleaving that produced it. */
  token: string
  /** The header's tool names for this output (empty when the turn failed). */
  tools: string[]
}

export interface ScenarioReport {
  name: string
  /** The scenario file as given on the command line. */
  file: string
  variant: string
  target: string
  /** Number of plugin entries in the scenario. */
  plugins: number
  /** Size of the (discovered) interleaving space, as an exact decimal string (it can exceed 2^53). */
  space: string
  /** Operations found by running the scenario beyond those its file declares (timers its plugins set up while booting), in chain order. */
  discovered: string[]
  /** Planned interleavings that ran (in this shard). */
  planned: number
  /** Distinct effective release orders those runs realised: what the guarantee speaks of. */
  explored: number
  /** For a t-way plan: how many of the t-orders the system allows the effective orders realised. */
  coverage?: { strength: number, realised: number, total: number }
  /** Runs whose effective order fell outside the discovered space (the guarantee is then `sampled`). */
  deviations?: { count: number, token: string, reason: string }
  /** Sharded sweeps only: the distinct effective orders (`<op>,…/<enabledAt>,…`), so a merge can count and check them. */
  orders?: string[]
  strategy: string
  /** `exhaustive`, `t-way:N` or `sampled`. */
  guarantee: string
  verdict: Verdict
  /** Whether the scenario met its expectation (and its golden); absent when it was skipped. */
  passed?: boolean
  /** Outcome of the interleavings when they agree: completed | turn-error | load-error | stuck | crashed; `mixed` when they do not. */
  outcome: string
  distinctOutputs: number
  outputs: ReportOutput[]
  divergence: Divergence | null
  /** Set when the verdict is `uncontrolled`: the interleaving that replayed to other bytes. */
  uncontrolled?: UncontrolledReplay
  /** Set when the verdict is `harness-fault`: the interleaving whose controlled runs disagree while its runs with loadrace's control off agree (loadrace's failure, exit 3). */
  harnessFault?: HarnessFault
  /** The hosts every interleaving ran on, the first host first (`current`: the Node running loadrace, as it is). */
  hosts: string[]
  /** The Node the first host ran on, and the APIs the target had to supply to it (e.g. Promise.withResolvers on Node 20). */
  runtime?: RanOn
  /** With a dsh snapshot (`snapshot:`): what its pinned files are of the explored outputs. */
  snapshot?: SnapshotFinding
  /** Set when the verdict is `host-dependent`: the interleaving whose bytes differ between two hosts. */
  hostDifference?: HostDifference
  golden: GoldenStatus
  /** What the scenario file expected. */
  expected: { outcome: string, deterministic: boolean }
  /** Why the scenario failed, one line per reason (empty when it passed). */
  problems: string[]
  /** The golden's path (as the sweep's working directory sees it), when one was compared or written. */
  goldenFile?: string
  /** Unified diff against the golden, when it mismatched (or, with `-u`, when it was withheld). */
  goldenDiff?: string
  /** Set with golden `withheld`: why the golden was not written. */
  goldenWithheld?: string
  /** Why the scenario was not run (its target cannot run it, the machine lacks what it requires, or this shard holds none of its interleavings); set exactly when the verdict is `skipped`. */
  skipped?: string
  /** The shard (`3/4`) when it was skipped because this shard holds none of its interleavings: nothing to judge here; the merge of all shards judges it. */
  emptyShard?: string
  /** Set with verdict `error` when exploring or judging this scenario failed inside loadrace: the error's message. */
  error?: string
  /**
   * What the system printed (stdout, stderr, the console) in the interleavings
   * this entry names, once per distinct text; absent when they printed
   * nothing. Not part of the projection.
   */
  systemOutput?: PrintedOutput[]
  durationMs: number
}

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
  golden: { status: GoldenStatus, file?: string, diff?: string, reason?: string }
  /** What comparing the outputs with the scenario's dsh snapshot found, when it names one. */
  snapshot?: SnapshotFinding
  /** What the named interleavings printed (see `system-output.ts`). */
  printed?: PrintedOutput[]
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
  if (input.golden.status === 'missing') problems.push(`no golden pinned for this scenario at ${input.golden.file} (run with --update-goldens to write it)`)
  const report: ScenarioReport = {
    name: scenario.name,
    file: scenario.file,
    variant: scenario.variant,
    target: scenario.target,
    plugins: scenario.plugins.length,
    space: exploration.size.toString(),
    discovered: discoveredOps(scenario, exploration.space),
    planned: exploration.ran,
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
    divergence: analysis.verdict === 'divergent' ? analysis.divergence : null,
    hosts: [],
    golden: input.golden.status,
    expected: { outcome: scenario.expect.outcome, deterministic: scenario.expect.deterministic },
    problems,
    durationMs: input.durationMs,
  }
  if (analysis.verdict === 'uncontrolled') report.uncontrolled = analysis.uncontrolled
  if (analysis.verdict === 'harness-fault') report.harnessFault = analysis.harnessFault
  report.hosts = [...input.hosts]
  if (exploration.runtime !== undefined) report.runtime = exploration.runtime
  if (analysis.verdict === 'host-dependent') report.hostDifference = analysis.hostDifference
  if (input.snapshot !== undefined) report.snapshot = input.snapshot
  if (input.golden.file !== undefined) report.goldenFile = input.golden.file
  if (input.golden.diff !== undefined) report.goldenDiff = input.golden.diff
  if (input.golden.reason !== undefined) report.goldenWithheld = input.golden.reason
  if (input.printed !== undefined && input.printed.length > 0) report.systemOutput = input.printed
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
 * The entry of a scenario none of whose interleavings falls in this shard
 * (its plan is smaller than the shard count): skipped, saying so; the merge
 * of all shards judges it.
 */
export function emptyShardReport(scenario: Scenario, strategy: string, shard: string, planned: number, space: string, hosts: readonly string[]): ScenarioReport {
  const reason = `shard ${shard} holds none of its ${planned} interleaving${planned === 1 ? '' : 's'}; the merge of all shards judges it`
  return { ...skippedReport(scenario, strategy, reason), space, hosts: [...hosts], emptyShard: shard }
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
