/** How an interleaving ended. */
export const OUTCOMES = ['completed', 'turn-error', 'load-error', 'stuck', 'crashed'] as const
export type Outcome = typeof OUTCOMES[number]

/** Outcomes that carry an error message an expectation may match. */
export const ERROR_OUTCOMES: readonly Outcome[] = ['turn-error', 'load-error', 'crashed']

/** Outcomes after which a request header is logged (`expect.header` applies only to them). */
export const HEADER_OUTCOMES: readonly Outcome[] = ['completed', 'load-error']

/** Why an interleaving was declared stuck. */
export interface StuckInfo {
  /** `no-progress`: work was unsettled and nothing could wake it; `timeout`: the per-interleaving timeout expired. */
  reason: 'no-progress' | 'timeout'
  phase: 'boot' | 'turns'
  /** What the run was waiting for when it stopped: pending or unreached operations, and loader entries whose import or plugin never settled. */
  waiting: string[]
}

/**
 * How the system under test crashed the process it ran in: what dsh would do
 * on that machine, ending the interleaving there (outcome `crashed`).
 */
export interface Crash {
  /** `exit`: its code called `process.exit`; `uncaught-exception`: an exception escaped its code; `unhandled-rejection`: a rejection of its code nothing handled. */
  kind: 'exit' | 'uncaught-exception' | 'unhandled-rejection'
  /** The label of the loader entry whose code raised it; null for the base composition's own code. */
  entry: string | null
  /** With `exit`: the exit code. */
  code?: number
  /** With an exception or a rejection: `Name: message` of what was thrown, first line. */
  error?: string
}

/** At most this many awaited operations are named in an ending; the rest are counted. */
const NAMED_WAITING = 3

/**
 * How one interleaving ended, in one line: `completed`, `stuck (timeout in
 * boot; waiting for a, b)`, `turn-error: …`, `load-error: …`, `crashed: …`.
 * Said beside a rerun that gave other bytes, so that a run cut short is told
 * from one whose bytes moved.
 */
export function describeEnding(ended: { outcome: Outcome, errors: { load: readonly string[], turn: readonly string[] }, stuck: StuckInfo | null, crash?: Crash }): string {
  switch (ended.outcome) {
    case 'completed': return 'completed'
    case 'crashed': return `crashed: ${ended.crash === undefined ? 'no crash recorded' : describeCrash(ended.crash)}`
    case 'turn-error': return `turn-error: ${ended.errors.turn[0] ?? 'no message'}`
    case 'load-error': return `load-error: ${ended.errors.load[0] ?? 'no message'}`
    case 'stuck': {
      const stuck = ended.stuck
      if (stuck === null) return 'stuck'
      const named = stuck.waiting.slice(0, NAMED_WAITING).join(', ')
      const more = stuck.waiting.length > NAMED_WAITING ? ` and ${stuck.waiting.length - NAMED_WAITING} more` : ''
      return `stuck (${stuck.reason} in ${stuck.phase}${named === '' ? '' : `; waiting for ${named}${more}`})`
    }
  }
}

/** The crash in one line: `entry exit called process.exit(7)`, `uncaught exception in entry x: Error: boom`. */
export function describeCrash(crash: Crash): string {
  const where = crash.entry === null ? 'the base composition' : `entry ${crash.entry}`
  switch (crash.kind) {
    case 'exit': return `${where} called process.exit(${crash.code ?? 0})`
    case 'uncaught-exception': return `uncaught exception in ${where}: ${crash.error ?? 'unknown error'}`
    case 'unhandled-rejection': return `unhandled rejection in ${where}: ${crash.error ?? 'unknown reason'}`
  }
}
