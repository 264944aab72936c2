import { writeReport } from '../report/write.ts'
import { sweep } from '../sweep/sweep.ts'
import type { Command } from './command.ts'
import { reportExitCode } from './exit-code.ts'
import { OPTIONS, readExplore, readGoldens, readReport, readTimeout, readWorkers } from './options.ts'
import { scenariosFrom } from './scenarios.ts'
import { supervised } from './supervised-run.ts'
import { sweepSummary } from './summary.ts'

/** `loadrace sweep`: explore, judge, write the report, summarise. */
export const sweepCommand: Command = {
  spec: {
    name: 'sweep',
    summary: 'explore the interleavings of scenarios and judge them',
    synopsis: 'sweep [FILE|DIR…] [options]',
    description: [
      'Runs each scenario under many plugin import orders, groups the interleavings by the bytes the model would see, '
        + 'and checks the result against the scenario\'s expect: block and its golden. A divergence is minimised to one '
        + 'adjacent swap and blamed on the two plugins swapped.',
      'Goldens: the canonical projection of every deterministic scenario is compared with goldens/<name>.json. A missing '
        + 'golden is written, except under CI (CI set to anything but "", "false" or "0"), where it fails; under CI, goldens '
        + 'of no scenario are reported as obsolete and fail the sweep.',
      'Everything is validated (options, every scenario file) before anything is written. On SIGINT/SIGTERM the sweep '
        + 'stops, writes the report with complete: false, and exits 130/143; a second signal exits at once.',
    ],
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, cordis.yml files (swept with defaults on the dsh target), or folders searched recursively for scenario files (default: scenarios/)' }],
    options: [
      OPTIONS.strategy, OPTIONS.budget, OPTIONS.seed, OPTIONS.depth, OPTIONS.strength, OPTIONS.variant, OPTIONS.target,
      OPTIONS.shard, OPTIONS.workers, OPTIONS.timeout, OPTIONS.report, OPTIONS.format, OPTIONS.updateGoldens, OPTIONS.goldens,
    ],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    const explore = readExplore(args)
    const workers = readWorkers(args)
    const timeoutMs = readTimeout(args)
    const output = readReport(args, 'reports/latest')
    const goldens = readGoldens(args, cli.env)
    return supervised(cli, { workers, timeoutMs }, async ({ runner, signal, interrupted, onProgress, clearProgress }) => {
      const scenarios = await scenariosFrom(args.operands)
      // Interrupted before anything ran: nothing to report.
      if (signal.aborted) return interrupted()!
      const report = await sweep(scenarios, { ...explore, runner, workers, goldens, signal, onProgress: onProgress(scenario => scenario.name) })
      clearProgress()
      const written = await writeReport(output.dir, report, output.formats)
      cli.stdout.write(sweepSummary(report, written))
      return interrupted() ?? reportExitCode(report, cli.stderr)
    })
  },
}
