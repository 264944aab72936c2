import type { Runner } from '../sweep/runner.ts'
import type { Cli } from './command.ts'
import { watchInterruptions } from './interrupt.ts'
import { progressLine, type Progress } from './progress.ts'
import { runnerFor } from './sweep-command.ts'

/** What long-running work gets from `supervised`. */
export interface Supervision {
  runner: Runner
  /** Aborts at the first SIGINT/SIGTERM: stop, and return what was done so far. */
  signal: AbortSignal
  /** The live progress line, when stderr is a terminal outside CI. */
  progress: Progress | undefined
}

/**
 * Runs `work` the way every exploring command does: with the in-process
 * runner or a worker pool, a progress line on stderr, and SIGINT/SIGTERM
 * turned into an abort (a second signal exits at once). Resolves to the
 * work's result and the exit code of the signal that interrupted it, if any.
 */
export async function supervised<T>(
  cli: Cli,
  settings: { workers: number, timeoutMs: number | undefined },
  work: (supervision: Supervision) => Promise<T>,
): Promise<{ result: T, interrupted: number | undefined }> {
  const progress = progressLine(cli.stderr, cli.env)
  const interruption = watchInterruptions((name) => {
    progress?.clear()
    cli.stderr.write(`loadrace: ${name}: stopping; writing what was done so far (a second signal exits at once)\n`)
  })
  const runner = runnerFor(settings.workers, settings.timeoutMs)
  try {
    const result = await work({ runner, signal: interruption.signal, progress })
    return { result, interrupted: interruption.exitCode() }
  } finally {
    progress?.clear()
    await runner.close()
    interruption.dispose()
  }
}
