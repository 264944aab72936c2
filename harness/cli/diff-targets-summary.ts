import { comparisonRows, diffHeadline, differenceText, skippedLines } from '../diff-targets/render.ts'
import type { TargetDiffReport } from '../diff-targets/target-diff-report.ts'
import { summaryText } from '../report/envelope.ts'
import { alignedTable } from './table.ts'

/**
 * The terminal summary of `diff-targets`: one line per compared scenario,
 * every difference under its scenario, the skipped scenario/target pairs with
 * their reasons, the headline, and the files written.
 */
export function diffTargetsSummary(report: TargetDiffReport, written: readonly string[]): string {
  const table = alignedTable(comparisonRows(report)).trimEnd().split('\n')
  const lines = [table[0]!]
  report.compared.forEach((comparison, i) => {
    lines.push(table[i + 1]!)
    for (const difference of comparison.differences) lines.push(`    ${differenceText(difference, report.targets)}`)
    if (comparison.omitted > 0) lines.push(`    … and ${comparison.omitted} more, not listed`)
  })
  if (report.skipped.length > 0) lines.push('', 'Skipped:', ...skippedLines(report).map(line => `  ${line}`))
  return summaryText(lines, [diffHeadline(report)], written)
}
