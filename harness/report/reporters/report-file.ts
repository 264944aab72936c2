import type { Reporter } from '../reporter.ts'
import type { ReportFormat } from '../../settings/formats.ts'
import { FORMATS } from '../write.ts'

/** The reporter that writes the report in one format (`report.json`, `report.md`, `junit.xml`, `report.html`) into `dir`. */
export function reportFileReporter(format: ReportFormat, dir: string): Reporter {
  return { file: { dir, name: FORMATS[format].file, render: FORMATS[format].render } }
}

/** The file reporters of `formats` into `dir`, in the order given, each format once. */
export function reportFileReporters(dir: string, formats: readonly ReportFormat[]): Reporter[] {
  return [...new Set(formats)].map(format => reportFileReporter(format, dir))
}
