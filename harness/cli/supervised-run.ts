import type { Scenario } from '../scenario/types.ts'
import { inProcessRunner, type Runner } from '../sweep/runner.ts'
import { workerPool } from '../sweep/worker-pool.ts'
import type { Cli } from './command.ts'
import { watchInterruptions } from './interrupt.ts'
import { progressLine, type Progress } from './progress.ts'

/** The in-process runner for one worker, the worker-thread pool for more. */
export function runnerFor(workers: number, timeoutMs: number | undefined): Runner {
  return workers > 1 ? workerPool({ size: workers, timeoutMs }) : inProcessRunner({ timeoutMs })
}

/** What an exploring command's work gets from `supervised`. */
export interface Supervision {
  runner: Runner
  /** Aborts at the first SIGINT/SIGTERM: stop exploring, and report what was done so far. */
  signal: AbortSignal
  /** The exit code of the signal that interrupted the work (130 or 143), if one did. */
  interrupted(): number | undefined
  /** A progress callback drawing the live line (stderr on a terminal, outside CI) with `label(scenario)`, or undefined. */
  onProgress(label: (scenario: Scenario) => string): ((scenario: Scenario, explored: number, planned: number) => void) | undefined
  /** Clears the progress line before the command prints its summary. */
  clearProgress(): void
}

/**
 * Runs an exploring command's work — load scenarios, explore, write the
 * report, print the summary — with the in-process runner or a worker pool,
 * a progress line, and SIGINT/SIGTERM turned into an abort for the whole of
 * it (a second signal exits at once). Resolves to the work's exit code.
 */
export async function supervised(
  cli: Cli,
  settings: { workers: number, timeoutMs: number | undefined },
  work: (supervision: Supervision) => Promise<number>,
): Promise<number> {
  const progress: Progress | undefined = progressLine(cli.stderr, cli.env)
  const interruption = watchInterruptions((name) => {
    progress?.clear()
    cli.stderr.write(`loadrace: ${name}: stopping; writing what was done so far (a second signal exits at once)\n`)
  })
  const runner = runnerFor(settings.workers, settings.timeoutMs)
  try {
    return await work({
      runner,
      signal: interruption.signal,
      interrupted: () => interruption.exitCode(),
      onProgress: label => progress && ((scenario, explored, planned) => progress.update(label(scenario), explored, planned)),
      clearProgress: () => progress?.clear(),
    })
  } finally {
    progress?.clear()
    await runner.close()
    interruption.dispose()
  }
}
