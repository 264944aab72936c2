import { headline, reportStatus } from './present.ts'
import { PLAIN, type Style } from './style.ts'
import type { Report } from './sweep-report.ts'
import { summaryText } from './envelope.ts'
import { systemTerminalLines } from './system.ts'

/** Why a sweep ended before its last scenario, when it did. */
export type StopReason = 'interrupted' | 'bail'

const STOPPED: Readonly<Record<StopReason, string>> = {
  interrupted: 'INCOMPLETE (interrupted)',
  bail: 'stopped at the first failure (--bail)',
}

/** The width of the name column for these scenario names. */
export function nameWidth(names: readonly string[]): number {
  return Math.max(0, ...names.map(name => name.length))
}

/**
 * What a sweep prints after its scenarios: the headline with the interleaving
 * count (and why it stopped early), every obsolete golden, and the report
 * files written.
 */
export function sweepFooter(report: Report, written: readonly string[], style: Style = PLAIN, stopped?: StopReason): string {
  const interleavings = `${report.summary.interleavings} interleaving${report.summary.interleavings === 1 ? '' : 's'}`
  const status = reportStatus(report)
  const paint = status === 'failed' ? style.failed : status === 'passed' ? style.passed : style.skipped
  const early = report.complete ? '' : ` · ${STOPPED[stopped ?? 'interrupted']}`
  const closing = [`${paint(headline(report))} · ${interleavings}${early}`, ...systemTerminalLines(report), ...(report.obsoleteGoldens ?? []).map(file => `obsolete golden: ${file}`)]
  return summaryText([], closing, written)
}
