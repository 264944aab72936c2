import type { Report } from '../report/types.ts'
import type { Output } from './command.ts'
import { EXIT } from './usage-error.ts'

/**
 * `nothing ran: 3 skipped (reason: a, b; other reason: c)` when no scenario of
 * the report ran (every one was skipped), else undefined. A sweep that ran
 * nothing proves nothing, so it is not green (vitest treats "no test files
 * found" the same way).
 */
export function nothingRan(report: Report): string | undefined {
  if (report.summary.passed + report.summary.failed > 0) return undefined
  const byReason = new Map<string, string[]>()
  for (const scenario of report.scenarios) {
    if (scenario.skipped === undefined) continue
    byReason.set(scenario.skipped, [...byReason.get(scenario.skipped) ?? [], scenario.name])
  }
  const reasons = [...byReason].map(([reason, names]) => `${reason}: ${names.join(', ')}`)
  return `nothing ran: ${report.summary.skipped} skipped${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`
}

/**
 * The exit code of a finished report: 3 when judging a scenario failed inside
 * loadrace, 1 when a scenario did not meet its expectation, goldens are
 * obsolete, or nothing ran (each said on `stderr`), else 0.
 */
export function reportExitCode(report: Report, stderr: Output): number {
  for (const file of report.obsoleteGoldens ?? []) {
    stderr.write(`loadrace: obsolete golden ${file}: no scenario has this name (delete it, or restore the scenario)\n`)
  }
  const broken = report.scenarios.filter(scenario => scenario.error !== undefined)
  for (const scenario of broken) stderr.write(`loadrace: internal error in scenario ${scenario.name}: ${scenario.error}\n`)
  if (broken.length > 0) return EXIT.internal
  const idle = nothingRan(report)
  if (idle !== undefined) stderr.write(`loadrace: ${idle}\n`)
  return report.summary.failed > 0 || report.obsoleteGoldens !== undefined || idle !== undefined ? EXIT.failed : EXIT.ok
}
