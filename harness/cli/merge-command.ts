import { reportWhole } from '../report/reporter.ts'
import { REPORTERS, reporterNames } from '../report/reporters/index.ts'
import { InputError } from '../scenario/errors.ts'
import { mergeShards } from '../sweep/merge.ts'
import { styleFor } from './colour.ts'
import type { Command } from './command.ts'
import { reportExitCode } from './exit-code.ts'
import { OPTIONS, readSettings } from './options.ts'
import { EXIT, UsageError } from './usage-error.ts'
import { mergeSuiteShards, readSuiteShard, SuiteMergeError } from '../suite/merge.ts'
import { findingLines, suiteSummary, writeSuiteReport, type SuiteReport } from '../suite/report.ts'
import { testKey } from '../suite/results.ts'
import { isFinding } from '../suite/verdict.ts'

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
      'The shards of one loadrace test run (--shard i/n) merge the same way: their schedules are united, each shard\'s reruns alone are kept, and every test is judged on all the runs.',
    ],
    operands: [{ name: 'DIR…', help: 'folders holding the shards\' report.json' }],
    options: [OPTIONS.report, OPTIONS.format, OPTIONS.timeout, OPTIONS.updateGoldens, OPTIONS.goldens],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    if (args.operands.length === 0) throw new UsageError('missing DIR: give the folders of the shard reports (see loadrace merge --help)')
    const settings = readSettings(args, mergeCommand.spec, cli)
    const suiteShards = args.operands.map(readSuiteShard)
    if (suiteShards.some(shard => shard !== undefined)) {
      const missing = args.operands.filter((_, i) => suiteShards[i] === undefined)
      if (missing.length > 0) throw new InputError(missing.map(dir => `${dir}: no report.json of loadrace test (the other folders hold one; merge the shards of one run)`))
      let report
      try {
        report = mergeSuiteShards(suiteShards as { dir: string, report: SuiteReport }[])
      } catch (error) {
        if (error instanceof SuiteMergeError) throw new InputError([error.message])
        throw error
      }
      const written = await writeSuiteReport(settings.report, report)
      for (const test of report.tests) cli.stdout.write(`${test.verdict === 'holds' || test.verdict === 'skipped' ? '' : '✗ '}${test.verdict}  ${testKey(test)}\n${findingLines(test).map(line => `    ${line}\n`).join('')}`)
      cli.stdout.write(suiteSummary(report, written))
      return report.tests.some(test => isFinding(test.verdict)) ? EXIT.failed : EXIT.ok
    }
    const report = await mergeShards(args.operands, settings)
    const setup = { ...cli, style: styleFor(cli.stdout, cli.env), reporter: 'default' as const, showOutput: false, dir: settings.report, formats: settings.format }
    // The shards' own sweeps annotated their failures already.
    await reportWhole(reporterNames(setup).filter(name => name !== 'github-annotations').map(name => REPORTERS[name](setup)), report)
    return reportExitCode(report, cli.stderr)
  },
}
