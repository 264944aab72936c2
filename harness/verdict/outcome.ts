/** How an interleaving ended. */
export const OUTCOMES = ['completed', 'turn-error', 'load-error', 'stuck'] as const
export type Outcome = typeof OUTCOMES[number]

/** Outcomes that carry an error message an expectation may match. */
export const ERROR_OUTCOMES: readonly Outcome[] = ['turn-error', 'load-error']

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
