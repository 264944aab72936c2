import { endReport } from '../reporter.ts'
import { sweepReportKind } from '../sweep-kind.ts'
import type { Report } from '../sweep-report.ts'
import type { ReportFormat } from '../../settings/formats.ts'
import { reportFileReporters } from './report-file.ts'
import { stepSummaryPath, stepSummaryReporter } from './step-summary.ts'

/** Where `writeReport` reads `GITHUB_STEP_SUMMARY` from; defaults to `process.env`. */
export interface WriteReportOptions {
  env?: Readonly<Record<string, string | undefined>>
}

/**
 * Writes the report to `dir` in each requested format (`report.json`,
 * `report.md`, `junit.xml`, `report.html`) and returns the paths written.
 *
 * Every format is rendered before anything is written, so a rendering error
 * writes nothing. The files are written with `writeFilesAtomically`. When
 * `GITHUB_STEP_SUMMARY` names a file and `md` is requested, the Markdown is
 * also appended there.
 */
export async function writeReport(dir: string, report: Report, formats: readonly ReportFormat[], options: WriteReportOptions = {}): Promise<string[]> {
  const summary = stepSummaryPath(options.env ?? process.env, formats)
  return endReport([...reportFileReporters(sweepReportKind, dir, formats), ...summary === undefined ? [] : [stepSummaryReporter(sweepReportKind, summary)]], report)
}
