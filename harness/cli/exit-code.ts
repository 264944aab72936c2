import type { TargetDiffReport } from '../diff-targets/target-diff-report.ts'
import type { Report } from '../report/sweep-report.ts'
import type { TextWriter } from './command.ts'
import { EXIT } from './usage-error.ts'

/**
 * `nothing ran: 3 skipped (reason: a, b; other reason: c)` when no scenario of
 * the report ran (every one was skipped), else undefined. A sweep that ran
 * nothing proves nothing, so it is not green (vitest treats "no test files
 * found" the same way).
 */
export function nothingRan(report: Report): string | undefined {
  if (report.summary.passed + report.summary.failed > 0) return undefined
  if (emptyShard(report)) return undefined
  const skipped = report.scenarios.flatMap(scenario => scenario.skipped === undefined ? [] : [{ reason: scenario.skipped, name: scenario.name }])
  return `nothing ran: ${report.summary.skipped} skipped${byReason(skipped)}`
}

/**
 * Whether this is a shard that holds no interleaving of any scenario (each
 * plan is smaller than the shard count): it ran nothing, rightly; the merge
 * of all shards judges them, and exits 1 if nothing ran there.
 */
function emptyShard(report: Report): boolean {
  return report.scenarios.length > 0 && report.scenarios.every(scenario => scenario.emptyShard !== undefined)
}

/**
 * `nothing compared: 2 skipped (dsh: reason: a, b)` when `diff-targets`
 * compared no scenario on both targets, else undefined: like a sweep that ran
 * nothing, a comparison of nothing proves nothing.
 */
export function nothingCompared(report: TargetDiffReport): string | undefined {
  if (report.compared.length > 0) return undefined
  const skipped = report.skipped.map(pair => ({ reason: `${pair.target}: ${pair.reason}`, name: pair.scenario }))
  return `nothing compared: ${report.summary.skipped} skipped${byReason(skipped)}`
}

/** ` (reason: a, b; other reason: c)`, the names grouped by reason in order of first use; empty for none. */
function byReason(skipped: readonly { reason: string, name: string }[]): string {
  const names = new Map<string, string[]>()
  for (const { reason, name } of skipped) names.set(reason, [...names.get(reason) ?? [], name])
  const reasons = [...names].map(([reason, list]) => `${reason}: ${list.join(', ')}`)
  return reasons.length > 0 ? ` (${reasons.join('; ')})` : ''
}

/**
 * The exit code of a finished report: 3 when judging a scenario failed inside
 * loadrace, or loadrace failed to hold what it controls (verdict
 * `harness-fault`: never a verdict about the system), 1 when a scenario did not meet its expectation, goldens are
 * obsolete, or nothing ran (each said on `stderr`), else 0.
 */
export function reportExitCode(report: Report, stderr: TextWriter): number {
  for (const file of report.obsoleteGoldens ?? []) {
    stderr.write(`loadrace: obsolete golden ${file}: no scenario has this name (delete it, or restore the scenario)\n`)
  }
  const broken = report.scenarios.filter(scenario => scenario.error !== undefined)
  for (const scenario of broken) stderr.write(`loadrace: internal error in scenario ${scenario.name}: ${scenario.error}\n`)
  const faults = report.scenarios.filter(scenario => scenario.harnessFault !== undefined)
  for (const scenario of faults) stderr.write(`loadrace: harness fault in scenario ${scenario.name}: loadrace failed to hold ${scenario.harnessFault!.resource} (replay ${scenario.harnessFault!.token}); not a verdict about the system\n`)
  if (broken.length > 0 || faults.length > 0) return EXIT.internal
  const idle = nothingRan(report)
  if (idle !== undefined) stderr.write(`loadrace: ${idle}\n`)
  if (emptyShard(report)) stderr.write(`loadrace: shard ${report.options.shard} holds no interleaving of any scenario; the merge of all shards judges them\n`)
  return report.summary.failed > 0 || report.obsoleteGoldens !== undefined || idle !== undefined ? EXIT.failed : EXIT.ok
}
