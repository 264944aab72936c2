import { pause } from './quiescence.ts'
import type { OperationPool } from './operations.ts'
import { nothingCanWake, type ResourceBaseline } from './resources.ts'
import { wallNow } from './real-clock.ts'
import { harnessTimers } from './sandbox.ts'

export type Settled<T> =
  | { kind: 'settled', value: T }
  | { kind: 'rejected', error: unknown }
  | { kind: 'stuck', reason: 'no-progress' | 'timeout' }

/** Waits up to `ms` for `promise`, clearing its own timer so it never counts as a live resource afterwards. */
export function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
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
 * How many times in a row time may advance for repeating timers alone — each
 * release only re-arming the interval it fired, nothing else requested — before
 * the wait is declared stuck: the system spins without getting anywhere.
 */
export const SPIN_LIMIT = 100

/** What waiting needs from the interleaving. */
export interface WaitControl {
  pool: OperationPool
  baseline: ResourceBaseline
  /** Settles to quiescence; false when the deadline passed first. */
  quiesce(): Promise<boolean>
  deadline: number
  /** Whether real I/O the system started is open (`real-io.ts`): an answer may still wake it. */
  realIoOpen(): boolean
}

/**
 * Waits for `promise`, but never forever. Whenever the system is at rest and
 * the promise is still unsettled, time advances: the held timer due first is
 * released (the system can only be waiting for one of them). With no timer
 * held, when nothing can wake the system for {@link STUCK_AFTER_MS} (no
 * request in flight, no handle beyond the interleaving's baseline, no real
 * I/O the system started still open), nothing
 * can ever settle the promise (`no-progress`), as when repeating timers spin
 * {@link SPIN_LIMIT} times without anything else happening; otherwise it
 * waits until `deadline` (`timeout`).
 */
export async function settleOrStuck<T>(promise: Promise<T>, control: WaitControl): Promise<Settled<T>> {
  const { pool, baseline, deadline } = control
  let outcome: Settled<T> | undefined
  promise.then(
    value => { outcome = { kind: 'settled', value } },
    error => { outcome = { kind: 'rejected', error } },
  )
  let restingSince: number | undefined
  let spins = 0
  for (;;) {
    const quiet = await control.quiesce()
    if (outcome) return outcome
    if (!quiet) return { kind: 'stuck', reason: 'timeout' }
    const next = pool.next()
    if (next !== undefined) {
      const repeat = pool.isRepeat(next)
      const before = pool.version
      pool.release(next, false)
      await control.quiesce()
      // A repeating timer's release costs three steps (release, run, re-arm); anything more is progress.
      spins = repeat && pool.version - before <= 3 ? spins + 1 : 0
      if (spins >= SPIN_LIMIT && !outcome) return { kind: 'stuck', reason: 'no-progress' }
      restingSince = undefined
      continue
    }
    const now = wallNow()
    if (!control.realIoOpen() && !pool.unheldTimerPending() && nothingCanWake(baseline, pool.heldLiveTimers())) {
      restingSince ??= now
      if (now - restingSince >= STUCK_AFTER_MS) return { kind: 'stuck', reason: 'no-progress' }
    } else {
      restingSince = undefined
    }
    if (now >= deadline) return { kind: 'stuck', reason: 'timeout' }
    await waitAtMost(promise, Math.min(restingSince === undefined ? 5 : 2, Math.max(0, deadline - now)))
  }
}
