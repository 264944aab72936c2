import { LEGEND, matrixHeadline, matrixRows, mismatchedCells } from '../matrix/render.ts'
import type { MatrixReport } from '../matrix/matrix-report.ts'
import { replayCommand } from '../report/present.ts'
import { summaryText } from '../report/envelope.ts'
import { alignedTable } from './table.ts'

/**
 * The terminal summary of a matrix run: the variant × scenario table (rows are
 * scenarios), its legend, the problems of every cell that does not meet its
 * expectation with a replay command, the headline, and the files written.
 */
export function matrixSummary(report: MatrixReport, written: readonly string[]): string {
  const lines = [alignedTable(matrixRows(report)).trimEnd(), '', ...LEGEND]
  const mismatched = mismatchedCells(report)
  if (mismatched.length > 0) lines.push('')
  for (const cell of mismatched) {
    lines.push(`✗ ${cell.variant} on ${cell.scenario}:`, ...cell.problems.map(problem => `    ${problem}`))
    if (cell.token !== null) lines.push(`    replay: ${replayCommand(cell.token, cell.file)}`)
  }
  return summaryText(lines, [`${matrixHeadline(report)} · ${report.summary.interleavings} interleavings`], written)
}
