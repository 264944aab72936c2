import type { DocumentFormat } from '../settings/formats.ts'
import { writeDocuments } from '../report/documents.ts'
import { renderDiffJson, renderDiffMarkdown } from './render.ts'
import type { TargetDiffReport } from './target-diff-report.ts'

/** Writes `diff-targets.json` and/or `diff-targets.md` into `dir` (atomically); returns the paths written. */
export function writeTargetDiffReport(dir: string, report: TargetDiffReport, formats: readonly DocumentFormat[]): Promise<string[]> {
  return writeDocuments(dir, 'diff-targets', { json: () => renderDiffJson(report), md: () => renderDiffMarkdown(report) }, formats)
}
