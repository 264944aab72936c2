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

/**
 * Waits for `promise`, but never forever: when it is still unsettled after the
 * system has come to rest and no timer, socket or file request exists beyond
 * the interleaving's baseline, nothing can ever settle it (`no-progress`);
 * otherwise it waits until `deadline` (`timeout`).
 */
export async function settleOrStuck<T>(promise: Promise<T>, deadline: number, baseline: ResourceBaseline): Promise<Settled<T>> {
  let outcome: Settled<T> | undefined
  promise.then(
    value => { outcome = { kind: 'settled', value } },
    error => { outcome = { kind: 'rejected', error } },
  )
  let idleTurns = 0
  for (;;) {
    await tick()
    if (outcome) return outcome
    if (nothingCanWake(baseline)) {
      // Two quiet macrotask turns in a row with nothing that could wake the work: it is stuck.
      if (++idleTurns >= 3) return { kind: 'stuck', reason: 'no-progress' }
      continue
    }
    idleTurns = 0
    if (Date.now() >= deadline) return { kind: 'stuck', reason: 'timeout' }
    await waitAtMost(promise, Math.min(5, Math.max(0, deadline - Date.now())))
  }
}
