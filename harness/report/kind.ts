import type { ReportFormat } from '../settings/formats.ts'
import type { Reporter, Sink } from './reporter.ts'
import type { Style } from './style.ts'

/**
 * A kind of report — a sweep's, a test run's — as the reporter map needs
 * it: its renderer for each format, its terminal lines and its GitHub
 * annotations. The map (`reporters/index.ts`) builds every reporter from a
 * kind injected this way, so one map serves every command that reports.
 */

/** How the terminal prints, for any kind. */
export interface TerminalSetup {
  style: Style
  /** Print what the system under test printed under every scenario (a sweep's `--show-output`). */
  showOutput: boolean
}

export interface ReportKind<R> {
  /** The report's `report` field, by which `loadrace merge` tells kinds apart. */
  readonly name: 'sweep' | 'test'
  /** Each format's rendering of a report. */
  readonly render: Readonly<Record<ReportFormat, (report: R) => string>>
  /** The lines people read: results on `out`, live progress on `progress`. */
  terminal(out: Sink, progress: Sink, setup: TerminalSetup): Reporter<R>
  /** A GitHub `::error` annotation per failure, on `out`. */
  annotations(out: Sink): Reporter<R>
}
