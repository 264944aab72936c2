import type { Scenario } from '../scenario/scenario.ts'
import { sweepRunners, type SweepRunners } from '../sweep/runners.ts'
import type { Cli } from './command.ts'
import { heartbeatInterval, startHeartbeat, type Heartbeat } from './heartbeat.ts'
import { watchInterruptions } from '../signals/interrupt.ts'
import { progressLine, type Progress } from './progress.ts'
import type { Reporter } from '../report/reporter.ts'

/** What an exploring command's work gets from `supervised`. */
export interface Supervision {
  /** The runner on this process's own host: in process for one worker, a pool of worker processes for more. */
  runner: SweepRunners['runner']
  /** The runner of each host (other hosts run child processes on their Node and environment). */
  runners: SweepRunners['runners']
  /** Aborts at the first SIGINT/SIGTERM: stop exploring, and report what was done so far. */
  signal: AbortSignal
  /** The exit code of the signal that interrupted the work (130 or 143), if one did. */
  interrupted(): number | undefined
  /**
   * A progress callback with `label(scenario)`: it draws the live line (stderr
   * on a terminal, outside CI), or feeds the heartbeat that stands in for it
   * everywhere else.
   */
  onProgress(label: (scenario: Scenario) => string): (scenario: Scenario, explored: number, planned: number) => void
  /** Clears the progress line before the command prints anything. */
  clearProgress(): void
  /**
   * The same as a reporter, first in a sweep's list: it counts the scenarios,
   * draws each one's progress under `label(scenario)`, and clears the line
   * before any other reporter prints.
   */
  progressReporter(label: (scenario: Scenario) => string): Reporter
}

/**
 * Runs an exploring command's work — load scenarios, explore, write the
 * report, print the summary — with the in-process runner or a worker pool,
 * a progress line on a terminal or a heartbeat line on stderr at a fixed
 * interval elsewhere, and SIGINT/SIGTERM turned into an abort for the whole
 * of it (a second signal exits at once). Resolves to the work's exit code.
 */
export async function supervised(
  cli: Cli,
  settings: Parameters<typeof sweepRunners>[0],
  work: (supervision: Supervision) => Promise<number>,
): Promise<number> {
  const progress: Progress | undefined = progressLine(cli.stderr, cli.env)
  const interval = heartbeatInterval(cli.env)
  let units: number | undefined
  const heartbeat: Heartbeat | undefined = progress === undefined && interval > 0 ? startHeartbeat(cli.stderr, interval, () => units) : undefined
  const interruption = watchInterruptions((name) => {
    progress?.clear()
    cli.stderr.write(`loadrace: ${name}: stopping; writing what was done so far (a second signal exits at once)\n`)
  })
  const { runner, runners, close } = sweepRunners(settings)
  const onProgress = (label: (scenario: Scenario) => string) => (scenario: Scenario, explored: number, planned: number) => {
    progress?.update(label(scenario), explored, planned)
    heartbeat?.update(label(scenario), explored, planned)
  }
  const clearProgress = () => progress?.clear()
  try {
    return await work({
      runner,
      runners,
      signal: interruption.signal,
      interrupted: () => interruption.exitCode(),
      onProgress,
      clearProgress,
      progressReporter: label => ({
        onStart: (names) => { units = names.length },
        onScenarioStart: scenario => heartbeat?.update(label(scenario), 0, 0),
        onProgress: onProgress(label),
        onScenarioJudged: clearProgress,
        onEnd: clearProgress,
      }),
    })
  } finally {
    heartbeat?.stop()
    progress?.clear()
    await close()
    interruption.dispose()
  }
}
