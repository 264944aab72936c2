import { writeReport } from '../report/write.ts'
import { inProcessRunner, type Runner } from '../sweep/runner.ts'
import { sweep } from '../sweep/sweep.ts'
import { workerPool } from '../sweep/worker-pool.ts'
import type { Command } from './command.ts'
import { reportExitCode } from './exit-code.ts'
import { watchInterruptions } from './interrupt.ts'
import { OPTIONS, readExplore, readGoldens, readReport, readTimeout, readWorkers } from './options.ts'
import { progressLine } from './progress.ts'
import { scenariosFrom } from './scenarios.ts'
import { sweepSummary } from './summary.ts'

/** The in-process runner for one worker, the worker-thread pool for more. */
export function runnerFor(workers: number, timeoutMs: number | undefined): Runner {
  return workers > 1 ? workerPool({ size: workers, timeoutMs }) : inProcessRunner({ timeoutMs })
}

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
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, or folders searched recursively (default: scenarios/)' }],
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
    const progress = progressLine(cli.stderr, cli.env)
    const interruption = watchInterruptions((name) => {
      progress?.clear()
      cli.stderr.write(`loadrace: ${name}: stopping; writing what was explored so far (a second signal exits at once)\n`)
    })
    try {
      const scenarios = await scenariosFrom(args.operands)
      // Interrupted before anything ran: nothing to report.
      const early = interruption.exitCode()
      if (early !== undefined) return early
      const runner = runnerFor(workers, timeoutMs)
      let report
      try {
        report = await sweep(scenarios, {
          ...explore,
          runner,
          workers,
          goldens,
          signal: interruption.signal,
          onProgress: progress ? (scenario, explored, planned) => progress.update(scenario.name, explored, planned) : undefined,
        })
      } finally {
        progress?.clear()
        await runner.close()
      }
      const written = await writeReport(output.dir, report, output.formats)
      cli.stdout.write(sweepSummary(report, written))
      return interruption.exitCode() ?? reportExitCode(report, cli.stderr)
    } finally {
      interruption.dispose()
    }
  },
}
