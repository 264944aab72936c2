import type { CommandRun, RunPlace } from './command-run.ts'

/**
 * Why a natural run judged nothing (exit 4): the command could not start, it
 * ran no test, or no process it started booted a cordis loader, so no load
 * order was controlled and a green run would prove nothing.
 */

/** Nothing could be judged: the message says why, in one line; `run` is the natural run. */
export class NothingJudged extends Error {
  override readonly name = 'NothingJudged'

  constructor(message: string, readonly run: CommandRun) {
    super(message)
  }
}

/** Why the natural run `run` judged nothing, or undefined when it can be judged. */
export function whyUnjudged(run: CommandRun, place: RunPlace, logShown: string): string | undefined {
  const command = place.command.argv.join(' ')
  if (run.startError !== undefined) {
    return run.startError === 'ENOENT' ? `command not found: ${place.command.argv[0]} (in ${command})` : `the command could not start: ${run.startError}`
  }
  if (run.results === undefined || run.results.length === 0) {
    return `the command ran no test (exit ${run.exitCode ?? run.signal}); its output is in ${logShown}`
  }
  if (run.processes.length === 0) {
    return `no process the command started (nor a test in a vitest worker) booted a cordis loader, so no load order was controlled (${run.results.length} tests ran); its output is in ${logShown}`
  }
  return undefined
}
