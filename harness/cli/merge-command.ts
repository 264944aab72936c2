import { readReportIn } from '../report/read-kind.ts'
import { reportTestWhole, reportWhole } from '../report/reporter.ts'
import { REPORTERS, reporterNames } from '../report/reporters/index.ts'
import { sweepReportKind } from '../report/sweep-kind.ts'
import { testReportKind } from '../report/test/kind.ts'
import type { TestReport } from '../report/test-report.ts'
import { InputError } from '../scenario/errors.ts'
import { mergeShards } from '../sweep/merge.ts'
import { styleFor } from './colour.ts'
import type { Command } from './command.ts'
import { reportExitCode } from './exit-code.ts'
import { OPTIONS, readSettings } from './options.ts'
import { EXIT, UsageError } from './usage-error.ts'
import { mergeSuiteShards, SuiteMergeError, type SuiteShard } from '../suite/merge.ts'
import { testExitCode } from './test-command.ts'

/** `loadrace merge`: one report from the reports of all shards of a sweep, judged anew. */
export const mergeCommand: Command = {
  spec: {
    name: 'merge',
    summary: 'merge the reports of the shards of one sweep and judge the whole',
    synopsis: 'merge DIR… --report DIR [options]',
    description: [
      'Each DIR holds the report.json of one shard (loadrace sweep --shard i/n). The shards must share strategy, seed, '
        + 'budget, depth and strength, and shards 1..n must each be given exactly once. Per scenario the outputs are united by hash, each '
        + 'distinct output\'s first interleaving is replayed once, and the whole is judged as an unsharded sweep would '
        + 'be: a divergence whose two sides fell in different shards is found, minimised and blamed. Scenario files are '
        + 'read from the paths the reports record (relative to the working directory).',
      'The shards of one loadrace test run (--shard i/n) merge the same way: their schedules are united, each shard\'s reruns alone are kept, and every test is judged on all the runs. Which merge applies is read from each report.json\'s own "report" field (sweep or test); the folders must all hold one kind.',
    ],
    operands: [{ name: 'DIR…', help: 'folders holding the shards\' report.json' }],
    options: [OPTIONS.report, OPTIONS.format, OPTIONS.timeout, OPTIONS.updateGoldens, OPTIONS.goldens],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    if (args.operands.length === 0) throw new UsageError('missing DIR: give the folders of the shard reports (see loadrace merge --help)')
    const settings = readSettings(args, mergeCommand.spec, cli)
    const read = args.operands.map(dir => ({ dir, ...readReportIn(dir) }))
    const problems = read.flatMap(entry => 'problem' in entry ? [entry.problem] : [])
    if (problems.length > 0) throw new InputError(problems)
    const kinds = [...new Set(read.map(entry => 'kind' in entry ? entry.kind : ''))]
    if (kinds.length > 1) throw new InputError([`the folders hold reports of different kinds (${kinds.join(', ')}); merge the shards of one run`])
    const setup = { ...cli, style: styleFor(cli.stdout, cli.env), reporter: 'default' as const, showOutput: false, dir: settings.report, formats: settings.format }
    // The shards' own runs annotated their failures already.
    const names = reporterNames(setup).filter(name => name !== 'github-annotations')
    if (kinds[0] === 'test') {
      const report = mergeTestShards(read.map(entry => ({ dir: entry.dir, report: (entry as { report: TestReport }).report })))
      await reportTestWhole(names.map(name => REPORTERS[name](setup, testReportKind)), report)
      return testExitCode(report)
    }
    if (kinds[0] !== 'sweep') throw new InputError([`${read[0]!.dir}: a ${kinds[0]} report; loadrace merge merges the shards of one sweep or of one loadrace test run`])
    const report = await mergeShards(args.operands, settings)
    await reportWhole(names.map(name => REPORTERS[name](setup, sweepReportKind)), report)
    return reportExitCode(report, cli.stderr)
  },
}

/** The merged report of a test run's shards, or the one line saying why not. */
function mergeTestShards(shards: readonly SuiteShard[]): TestReport {
  try {
    return mergeSuiteShards(shards)
  } catch (error) {
    if (error instanceof SuiteMergeError) throw new InputError([error.message])
    throw error
  }
}
