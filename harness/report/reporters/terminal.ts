import { PLAIN, type Style } from '../style.ts'
import { scenarioBlock } from '../terminal.ts'
import type { Reporter, Sink } from '../reporter.ts'
import { nameWidth, sweepFooter, type StopReason } from '../summary.ts'

/** How the terminal reporter prints. */
export interface TerminalSettings {
  style?: Style
  /** Print what the system printed under every scenario, not only under a failed one. */
  showOutput?: boolean
}

/**
 * The lines people read, on `out`: each scenario's line and details as soon
 * as it is judged (names in one column as wide as the longest), then the
 * footer with the report files written.
 */
export function terminalReporter(out: Sink, settings: TerminalSettings = {}): Reporter {
  const style = settings.style ?? PLAIN
  let width = 0
  let stopped: StopReason | undefined
  return {
    onStart(names) {
      width = nameWidth(names)
    },
    onScenarioJudged(entry) {
      out.write(scenarioBlock(entry, width, style, settings).map(line => `${line}\n`).join(''))
    },
    onInterrupted(reason) {
      stopped = reason
    },
    onEnd(report, written) {
      out.write(`${report.scenarios.length > 0 ? '\n' : ''}${sweepFooter(report, written, style, stopped)}`)
    },
  }
}
