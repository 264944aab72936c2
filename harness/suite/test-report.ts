import { relative } from 'node:path'
import { enveloped } from '../report/envelope.ts'
import { shellQuote, shellWord } from '../report/escape.ts'
import type { TestReach, TestReport, TestReportOptions, TestReportRun, TestInterruption, TestReplay } from '../report/test-report.ts'
import { formatOrder } from '../settings/orders.ts'
import { formatShard } from '../settings/shard.ts'
import type { Settings } from '../settings/settings.ts'
import { formatGuarantee } from '../strategies/index.ts'
import { isFinding, TEST_VERDICTS, type ProcessNote, type TestFinding, type TestVerdict } from '../verdict/test-verdict.ts'
import type { TestCommand } from './command-line.ts'
import type { CommandRun } from './command-run.ts'
import type { ConfigurationOutcome } from './test-suite.ts'

/**
 * `report.json` of a test run, assembled: the envelope around the command,
 * its configurations, its findings (each `pins-one` with its replay command)
 * and its runs, with every path relative to the report folder.
 */

/** The report's options: the settings as resolved, so a merge of shards plans exactly as they did. */
export function testReportOptions(settings: Pick<Settings, 'strategy' | 'budget' | 'seed' | 'depth' | 'strength' | 'shard' | 'reruns' | 'jobs' | 'junit'>): TestReportOptions {
  return {
    strategy: settings.strategy,
    budget: settings.budget,
    seed: settings.seed,
    depth: settings.depth ?? null,
    strength: settings.strength ?? null,
    shard: settings.shard === undefined ? null : formatShard(settings.shard),
    reruns: settings.reruns,
    jobs: settings.jobs,
    junit: settings.junit ?? null,
  }
}

/** The command that reruns `test` alone under the failing order of its blame (or of its failing side). */
export function replayCommand(command: TestCommand, finding: TestFinding): string | undefined {
  const pinned = finding.pinsOne
  if (pinned === undefined || finding.partial !== undefined) return undefined
  const orders = pinned.blame ? { [pinned.blame.configuration]: pinned.blame.failing } : pinned.failing.orders
  const parts = ['npx', 'loadrace', 'test']
  for (const [configuration, order] of Object.entries(orders)) parts.push('--order', shellWord(formatOrder(configuration, order)))
  parts.push('--only', shellQuote(finding.name), '--', ...command.argv.map(shellWord))
  return parts.join(' ')
}

/** The rows each configuration got in a run, as its processes recorded them. */
function rowsOf(run: CommandRun): Record<string, readonly string[]> {
  const rows: Record<string, readonly string[]> = {}
  for (const record of run.processes) if (record.configuration !== null && record.row !== undefined) rows[record.configuration] ??= record.row
  return rows
}

/** A run as the report keeps it, its log relative to the report folder `folder`. */
export function reportRun(run: CommandRun, folder: string): TestReportRun {
  return {
    name: run.name,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    rows: rowsOf(run),
    log: relative(folder, run.log).split('\\').join('/'),
    processes: run.processes.map(({ configuration, requested, released, applies }) => ({ configuration, requested, released, ...applies === undefined ? {} : { applies } })),
  }
}

/** What a report is assembled from. */
export interface TestReportParts {
  readonly command: TestCommand
  readonly cwd: string
  readonly settings: Parameters<typeof testReportOptions>[0]
  /** The folder the report is written to (runs' logs are named relative to it), as the runs see it. */
  readonly folder: string
  readonly runs: readonly CommandRun[]
  readonly configurations?: readonly ConfigurationOutcome[]
  readonly reach?: TestReach
  readonly tests?: readonly TestFinding[]
  readonly processNotes?: readonly ProcessNote[]
  readonly reruns?: number
  readonly unjudged?: string
  readonly interrupted?: TestInterruption
  readonly replay?: TestReplay
  readonly durationMs: number
}

/** The report of a test run, a replay, or a run that judged nothing. */
export function testReport(parts: TestReportParts): TestReport {
  const tests = (parts.tests ?? []).map(test => ({ ...test, ...replayCommand(parts.command, test) === undefined ? {} : { replay: replayCommand(parts.command, test)! } }))
  const counts = Object.fromEntries(TEST_VERDICTS.map(verdict => [verdict, tests.filter(test => test.verdict === verdict).length])) as Record<TestVerdict, number>
  return enveloped('test', {
    complete: parts.interrupted === undefined,
    options: testReportOptions(parts.settings),
    body: {
      command: parts.command.argv,
      cwd: parts.cwd,
      ...parts.unjudged === undefined ? {} : { unjudged: parts.unjudged },
      ...parts.interrupted === undefined ? {} : { interrupted: parts.interrupted },
      ...parts.replay === undefined ? {} : { replay: parts.replay },
      configurations: (parts.configurations ?? []).map(c => ({
        configuration: c.configuration, entries: c.entries, rows: c.rows, fromNatural: c.fromNatural, naturalOrders: c.naturalOrders, fromReference: c.fromNatural, processes: c.processes,
        over: c.over, ...c.units === undefined ? {} : { units: c.units }, guarantee: formatGuarantee(c.guarantee), ...c.note === undefined ? {} : { note: c.note },
        ...c.reach === undefined ? {} : { reach: c.reach },
      })),
      ...parts.reach === undefined ? {} : { reach: parts.reach },
      tests,
      runs: parts.runs.map(run => reportRun(run, parts.folder)),
      processNotes: parts.processNotes ?? [],
    },
    summary: { tests: tests.length, ...counts, runs: parts.runs.length, reruns: parts.reruns ?? 0 },
    durationMs: parts.durationMs,
  })
}

/**
 * How a test run's report ends, for its exit code: `unjudged` when nothing
 * could be judged; `findings` when a test is `pins-one`, `flaky` or `fails`
 * (a replay: when a test it ran fails); else `clean`.
 */
export function testRunStatus(report: TestReport): 'clean' | 'findings' | 'unjudged' {
  if (report.unjudged !== undefined) return 'unjudged'
  const found = report.replay !== undefined ? report.tests.some(test => test.verdict === 'fails') : report.tests.some(test => isFinding(test.verdict))
  return found ? 'findings' : 'clean'
}
