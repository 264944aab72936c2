import { nextRelease } from '../preload/release-rule.js'
import type { OperationPool } from './operations.ts'

/**
 * Chooses the release order of one interleaving: releases pending operations
 * of `pool` one at a time, calling `settle` after each, until nothing more can
 * be released. `schedule` is the planned order (a driver may choose its own).
 */
export type ScheduleDriver = (
  pool: OperationPool,
  schedule: readonly string[],
  settle: () => Promise<boolean>,
  booting: () => boolean,
) => Promise<unknown>

/**
 * Releases operations one at a time, settling to quiescence after each, by
 * the release rule the preload of `loadrace test` follows too
 * (`preload/release-rule.js`):
 *
 * 1. the first operation of the schedule that is pending and may go now (a
 *    timer whose deadline no other held timer precedes) — so every schedule
 *    runs to the end it can reach, and an operation the system is not ready
 *    for (a plugin still waiting for a service) simply goes later;
 * 2. when none can and the boot is still waiting (`booting()`), an operation
 *    the schedule does not name, as the system would run it: a held import
 *    or batch gap, else the timer due first — the virtual clock advances only
 *    when the boot waits on nothing else, so a timer nobody waits for stays
 *    held. An interval's later firings are left to `settle.ts`, which also
 *    notices when they spin;
 * 3. when neither (what only the in-process scheduler has: held timers), a
 *    scheduled operation the deadlines hold back, so that the run never
 *    stalls.
 *
 * The pool's release order is the effective schedule. Returns the scheduled
 * operations that never became pending.
 */
export async function driveSchedule(
  pool: OperationPool,
  schedule: readonly string[],
  settle: () => Promise<boolean>,
  booting: () => boolean,
): Promise<string[]> {
  const remaining = [...schedule]
  const planned = new Set(schedule)
  await settle()
  for (;;) {
    pool.observe()
    const next = nextRelease(remaining, op => pool.canRelease(op), () => booting() ? pool.next(label => !planned.has(label) && !pool.isRepeat(label)) : undefined)
    const op = next?.label ?? pool.next(label => remaining.includes(label))
    if (op === undefined) return remaining.filter(label => !pool.isPending(label))
    if (remaining.includes(op)) remaining.splice(remaining.indexOf(op), 1)
    pool.release(op)
    await settle()
  }
}
