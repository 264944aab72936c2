import type { ReportKind } from '../kind.ts'
import type { Reporter } from '../reporter.ts'
import type { ReportFormat } from '../../settings/formats.ts'
import { FORMAT_FILES } from '../write.ts'

/** The reporter that writes a report of `kind` in one format (`report.json`, `report.md`, `junit.xml`, `report.html`) into `dir`. */
export function reportFileReporter<R>(kind: ReportKind<R>, format: ReportFormat, dir: string): Reporter<R> {
  return { file: { dir, name: FORMAT_FILES[format], render: kind.render[format] } }
}

/** The file reporters of `formats` into `dir`, in the order given, each format once. */
export function reportFileReporters<R>(kind: ReportKind<R>, dir: string, formats: readonly ReportFormat[]): Reporter<R>[] {
  return [...new Set(formats)].map(format => reportFileReporter(kind, format, dir))
}
