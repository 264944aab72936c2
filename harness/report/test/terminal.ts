import type { Reporter, Sink } from '../reporter.ts'
import type { StopReason } from '../summary.ts'
import { summaryText } from '../envelope.ts'
import type { TestReport } from '../test-report.ts'
import type { TestFinding } from '../../verdict/test-verdict.ts'
import { bootReachText, detailedTests, findingLines, reachText, rowsPhrase, testHeadline, testTitle, verdictText } from './present.ts'

/** Lines of a finding's failure the terminal shows (the report has all of it). */
export const TERMINAL_FAILURE_LINES = 40

const MARK: Readonly<Record<TestFinding['verdict'], string>> = { 'holds': '✓', 'skipped': '-', 'pins-one': '✗', 'fails': '✗', 'flaky': '✗' }

/** A test's line: its mark, verdict and title (`?` for a verdict the interrupted run could still change). */
export function testLine(test: TestFinding): string {
  return `${test.partial === undefined ? MARK[test.verdict] : '?'} ${verdictText(test)}  ${testTitle(test)}\n`
}

/** A finding's block: its line, what flipped it, the replay, and the suite's own failure (cut at {@link TERMINAL_FAILURE_LINES}). */
export function findingBlock(test: TestFinding): string {
  let text = `\n${testLine(test)}${findingLines(test).map(line => `    ${line}\n`).join('')}`
  const failure = test.failure ?? test.message
  if (failure === undefined) return text
  const lines = failure.split('\n')
  text += lines.slice(0, TERMINAL_FAILURE_LINES).map(line => `    ${line}\n`).join('')
  if (lines.length > TERMINAL_FAILURE_LINES) text += `    … ${lines.length - TERMINAL_FAILURE_LINES} more lines in report.md\n`
  return text
}

/** The closing lines: the headline, each configuration's plan and guarantee, the files written. */
export function testFooter(report: TestReport, written: readonly string[]): string {
  const configurations = report.configurations.flatMap(c => [
    `  ${c.configuration}: ${c.entries.length} entries${c.units === undefined ? '' : `, ${c.units} plugins`}, ${rowsPhrase(c)} over ${c.over}, ${c.guarantee}`,
    ...[reachText(c), c.note].flatMap(line => line === undefined ? [] : [`    ${line}`]),
  ])
  const reach = report.reach === undefined ? [] : [`  reach: ${bootReachText(report.reach)}`]
  return summaryText([], ['', testHeadline(report), ...configurations, ...reach], written)
}

/**
 * The lines people read of a test run: on `progress` (stderr) each run of
 * the command as it starts and ends and each rerun alone as it starts, so a
 * long decision is never silent; on `out` each test's verdict as soon as it
 * is judged, then every finding in full, the headline and the report files.
 * A run that judged nothing says why in its one closing line, on `progress`.
 */
export function testTerminalReporter(out: Sink, progress: Sink): Reporter<TestReport> {
  let stopped: StopReason | undefined
  return {
    onRunStart(run) {
      progress.write(run.index === 0 ? 'loadrace test: the natural run (unperturbed) …\n' : `loadrace test: ${run.name} (${run.index} of ${run.total - 1}) …\n`)
    },
    onRunEnd(run) {
      progress.write(`loadrace test: ${run.name} done in ${(run.durationMs / 1000).toFixed(1)} s (exit ${run.exitCode ?? run.signal}; ${run.tests ?? 0} tests, ${run.processes} loader boots)\n`)
    },
    onRerun(rerun) {
      const why = rerun.purpose === 'narrowing'
        ? `narrowing to the swap that flips it, order ${rerun.attempt}${rerun.of === undefined ? '' : ` of at most ${rerun.of}`}`
        : `its ${rerun.purpose} side (${rerun.run}), ${rerun.attempt} of ${rerun.of}`
      const together = rerun.together === undefined || rerun.together.length === 0 ? '' : `, with ${rerun.together.length} more test${rerun.together.length === 1 ? '' : 's'} of the same sides`
      progress.write(`loadrace test: rerun ${rerun.count} alone${together}: ${rerun.test}: ${why}\n`)
    },
    onTestJudged(finding) {
      out.write(testLine(finding))
    },
    onInterrupted(reason) {
      stopped = reason
    },
    onEnd(report, written) {
      if (report.unjudged !== undefined) {
        progress.write(`loadrace test: ${stopped === undefined ? '' : 'interrupted; '}${report.unjudged}\n`)
        return
      }
      out.write(detailedTests(report).map(findingBlock).join(''))
      out.write(testFooter(report, written))
    },
  }
}
