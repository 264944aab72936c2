import type { Report } from '../report/types.ts'
import type { Output } from './command.ts'
import { EXIT } from './usage-error.ts'

/**
 * The exit code of a finished report: 1 when a scenario did not meet its
 * expectation or goldens are obsolete (each said on `stderr`), else 0.
 */
export function reportExitCode(report: Report, stderr: Output): number {
  for (const file of report.obsoleteGoldens ?? []) {
    stderr.write(`loadrace: obsolete golden ${file}: no scenario has this name (delete it, or restore the scenario)\n`)
  }
  return report.summary.failed > 0 || report.obsoleteGoldens !== undefined ? EXIT.failed : EXIT.ok
}
