import { COMPARED_TARGETS, diffTargets } from '../diff-targets/run.ts'
import { NORMALISATIONS } from '../diff-targets/normalisations.ts'
import { COMPARED_TEXT } from '../diff-targets/render.ts'
import { writeTargetDiffReport } from '../diff-targets/write.ts'
import { MATRIX_BUDGET_RATIONALE } from '../matrix/budget.ts'
import type { Command } from './command.ts'
import { diffTargetsSummary } from './diff-targets-summary.ts'
import { nothingCompared } from './exit-code.ts'
import { DOCUMENT_OPTIONS, documentFormatsOf, reportOption } from './document-options.ts'
import { OPTIONS, readSettings } from './options.ts'
import { scenariosFrom } from './scenarios.ts'
import { supervised } from './supervised-run.ts'
import { EXIT } from './usage-error.ts'


/** `loadrace diff-targets`: the reference against the published dsh packages, scenario by scenario. */
export const diffTargetsCommand: Command = {
  spec: {
    name: 'diff-targets',
    summary: `compare the ${COMPARED_TARGETS.join(' and ')} targets on every scenario both can run`,
    synopsis: 'diff-targets [FILE|DIR…] [options]',
    description: [
      `Sweeps each scenario against ${COMPARED_TARGETS[0]} and against ${COMPARED_TARGETS[1]} (the published dsh packages) `
        + 'with the same strategy, seed and budget, under the scenario\'s own variant. ' + COMPARED_TEXT + ' Each difference is reported with its path in the '
        + 'compared projection and a replay token. Scenarios a target cannot run are listed with the reason.',
      `Normalised (declared differences): ${NORMALISATIONS.map(normalisation => `${normalisation.name} at ${normalisation.paths.join(', ')}`).join('; ')}.`,
      MATRIX_BUDGET_RATIONALE,
      'Exit 0 when the targets agree on every compared scenario, 1 when any differs or when nothing was compared '
        + '(every scenario skipped on one target or the other).',
    ],
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, or folders searched recursively (default: scenarios/)' }],
    options: [
      OPTIONS.strategy, DOCUMENT_OPTIONS.budget, OPTIONS.seed, OPTIONS.depth, OPTIONS.strength,
      OPTIONS.workers, OPTIONS.timeout, reportOption('diff-targets'), DOCUMENT_OPTIONS.format,
    ],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    const settings = readSettings(args, diffTargetsCommand.spec, cli)
    return supervised(cli, settings, async ({ runner, signal, interrupted, onProgress, clearProgress }) => {
      const scenarios = await scenariosFrom(args.operands)
      if (signal.aborted) return interrupted()!
      const report = await diffTargets(scenarios, settings, {
        runner,
        signal,
        onProgress: onProgress(scenario => `${scenario.target} · ${scenario.name}`),
      })
      clearProgress()
      const written = await writeTargetDiffReport(settings.report, report, documentFormatsOf(settings))
      cli.stdout.write(diffTargetsSummary(report, written))
      const idle = nothingCompared(report)
      if (idle !== undefined) cli.stderr.write(`loadrace: ${idle}\n`)
      return interrupted() ?? (report.summary.differing > 0 || !report.complete || idle !== undefined ? EXIT.failed : EXIT.ok)
    })
  },
}
