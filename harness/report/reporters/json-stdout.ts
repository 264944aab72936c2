import { renderJson } from '../json.ts'
import type { Reporter, Sink } from '../reporter.ts'

/** The reporter that prints report.json, whole, on `out` once the run ends (`--reporter json`). */
export function jsonReporter(out: Sink): Reporter {
  return {
    onEnd(report) {
      out.write(renderJson(report))
    },
  }
}
