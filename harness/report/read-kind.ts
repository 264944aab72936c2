import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What kind of report a folder holds, read from its `report.json`'s own
 * `report` field (`sweep`, `test`, `matrix`, `diff-targets`): how `loadrace
 * merge` tells a sweep's shards from a test run's, never by their shape.
 */

/** The report in `dir`: its kind and parsed content, or one line saying why it cannot be used. */
export function readReportIn(dir: string): { kind: string, report: unknown } | { problem: string } {
  const path = join(dir, 'report.json')
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { problem: `${path}: ${code === 'ENOENT' ? 'no such file (each DIR must hold the report.json of a shard)' : `not readable JSON (${(error as Error).message})`}` }
  }
  const { tool, report } = (typeof value === 'object' && value !== null ? value : {}) as { tool?: unknown, report?: unknown }
  if (tool !== 'loadrace' || typeof report !== 'string') return { problem: `${path}: not a loadrace report (it has no "tool": "loadrace" and "report" kind)` }
  return { kind: report, report: value }
}
