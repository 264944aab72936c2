import { VERSION } from '../package/version.ts'

/**
 * What every report loadrace writes carries around its body (a sweep's and
 * a test run's `report.json`, `matrix.json`, `diff-targets.json`): the tool, its kind and version
 * that wrote it, whether it ran to the end, how it ran, and its summary
 * counts with how long it took — in this key order, the body between the
 * options and the summary.
 */
export interface Envelope<Options, Summary> {
  tool: 'loadrace'
  version: string
  /** False when interrupted: the body holds what was done so far. */
  complete: boolean
  options: Options
  summary: Summary & { durationMs: number }
}

/** How a report's parts are given to {@link enveloped}. */
interface EnvelopeParts<Options, Body, Summary> {
  complete: boolean
  options: Options
  body: Body
  summary: Summary
  /** How long the work took, for `summary.durationMs`. */
  durationMs: number
}

/**
 * A report: the envelope around `body`, in the contract's key order, with
 * `report: kind` after `tool` (`sweep` for a sweep's `report.json`, `test`
 * for a test run's, `matrix`, `diff-targets`).
 */
export function enveloped<Kind extends string, Options, Body extends object, Summary extends object>(kind: Kind, parts: EnvelopeParts<Options, Body, Summary>): Envelope<Options, Summary> & { report: Kind } & Body
export function enveloped(kind: string, parts: EnvelopeParts<unknown, object, object>): object {
  return {
    tool: 'loadrace',
    report: kind,
    version: VERSION,
    complete: parts.complete,
    options: parts.options,
    ...parts.body,
    summary: { ...parts.summary, durationMs: parts.durationMs },
  }
}

/**
 * A command's terminal summary: its lines, a blank line, the closing lines
 * (the headline first), and the report files written.
 */
export function summaryText(lines: readonly string[], closing: readonly string[], written: readonly string[]): string {
  const all = [...lines, ...lines.length > 0 ? [''] : [], ...closing]
  if (written.length > 0) all.push('Report:', ...written.map(file => `  ${file}`))
  return `${all.join('\n')}\n`
}
