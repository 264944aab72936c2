import type { DocumentFormat } from '../settings/formats.ts'
import { writeDocuments } from '../report/documents.ts'
import { renderMatrixJson, renderMatrixMarkdown } from './render.ts'
import type { MatrixReport } from './matrix-report.ts'

/** Writes `matrix.json` and/or `matrix.md` into `dir` (atomically); returns the paths written. */
export function writeMatrixReport(dir: string, report: MatrixReport, formats: readonly DocumentFormat[]): Promise<string[]> {
  return writeDocuments(dir, 'matrix', { json: () => renderMatrixJson(report), md: () => renderMatrixMarkdown(report) }, formats)
}
