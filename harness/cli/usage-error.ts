import { SIGNAL_EXIT_CODES } from '../signals/interrupt.ts'

/** Exit codes of the `loadrace` command. */
export const EXIT = {
  /** Every scenario met its expectation. */
  ok: 0,
  /** A scenario did not (or the run failed). */
  failed: 1,
  /** Bad input: a usage error or a malformed scenario file; nothing was written. */
  usage: 2,
  /** Internal error: judging a scenario failed inside loadrace (its verdict is `error`); every other scenario and every report file was still written. */
  internal: 3,
  /** `loadrace test` judged nothing: the command was not found, ran no test, or started no process with a cordis loader. */
  unjudged: 4,
  /** Interrupted by SIGINT. */
  interrupted: SIGNAL_EXIT_CODES.SIGINT,
  /** Terminated by SIGTERM. */
  terminated: SIGNAL_EXIT_CODES.SIGTERM,
} as const

/** A bad command line or setting: one line for stderr, naming the option (or variable) and what it allows. */
export { UsageError } from '../sweep/settings.ts'
