import type { ReportKind } from '../kind.ts'
import type { Reporter, Sink } from '../reporter.ts'

/** The reporter that prints `report.json`, whole, on `out` once the run ends (`--reporter json`). */
export function jsonReporter<R>(kind: ReportKind<R>, out: Sink): Reporter<R> {
  return {
    onEnd(report) {
      out.write(kind.render.json(report))
    },
  }
}
