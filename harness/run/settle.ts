import { tick } from '../loader/quiescence.ts'
import { nothingCanWake, type ResourceBaseline } from './resources.ts'
import { harnessTimers } from './sandbox.ts'

export type Settled<T> =
  | { kind: 'settled', value: T }
  | { kind: 'rejected', error: unknown }
  | { kind: 'stuck', reason: 'no-progress' | 'timeout' }

/** Waits up to `ms` for `promise`, clearing its own timer so it never counts as a live resource afterwards. */
function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = harnessTimers.setTimeout(resolve, ms)
    const done = () => {
      harnessTimers.clearTimeout(timer)
      resolve()
    }
    promise.then(done, done)
  })
}

/** How long the system must stay at rest, with nothing that could wake it, before a wait is declared stuck. */
export const STUCK_AFTER_MS = 20

/**
 * Waits for `promise`, but never forever: when it is still unsettled while the
 * system stays at rest for {@link STUCK_AFTER_MS} with no request in flight and
 * no timer or socket beyond the interleaving's baseline, nothing can ever
 * settle it (`no-progress`); otherwise it waits until `deadline` (`timeout`).
 */
export async function settleOrStuck<T>(promise: Promise<T>, deadline: number, baseline: ResourceBaseline): Promise<Settled<T>> {
  let outcome: Settled<T> | undefined
  promise.then(
    value => { outcome = { kind: 'settled', value } },
    error => { outcome = { kind: 'rejected', error } },
  )
  let restingSince: number | undefined
  for (;;) {
    await tick()
    if (outcome) return outcome
    const now = Date.now()
    if (nothingCanWake(baseline)) {
      restingSince ??= now
      if (now - restingSince >= STUCK_AFTER_MS) return { kind: 'stuck', reason: 'no-progress' }
    } else {
      restingSince = undefined
    }
    if (now >= deadline) return { kind: 'stuck', reason: 'timeout' }
    await waitAtMost(promise, Math.min(restingSince === undefined ? 5 : 2, Math.max(0, deadline - now)))
  }
}
