import type { Report } from '../report/types.ts'
import type { Output } from './command.ts'
import { EXIT } from './usage-error.ts'

/**
 * The exit code of a finished report: 3 when judging a scenario failed inside
 * loadrace (each said on `stderr`), 1 when a scenario did not meet its
 * expectation or goldens are obsolete (each said on `stderr`), else 0.
 */
export function reportExitCode(report: Report, stderr: Output): number {
  for (const file of report.obsoleteGoldens ?? []) {
    stderr.write(`loadrace: obsolete golden ${file}: no scenario has this name (delete it, or restore the scenario)\n`)
  }
  const broken = report.scenarios.filter(scenario => scenario.error !== undefined)
  for (const scenario of broken) stderr.write(`loadrace: internal error in scenario ${scenario.name}: ${scenario.error}\n`)
  if (broken.length > 0) return EXIT.internal
  return report.summary.failed > 0 || report.obsoleteGoldens !== undefined ? EXIT.failed : EXIT.ok
}
