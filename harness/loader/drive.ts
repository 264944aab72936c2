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
) => Promise<unknown>

/**
 * Releases the operations of `schedule` one at a time, settling to quiescence
 * after each. When the next operation of the schedule is not pending yet (its
 * plugin is still waiting for a service, say) the first later one that is
 * pending goes instead, so every schedule runs to the end it can reach; the
 * pool's release order is the effective schedule.
 *
 * Returns the operations that never became pending.
 */
export async function driveSchedule(
  pool: OperationPool,
  schedule: readonly string[],
  settle: () => Promise<boolean>,
): Promise<string[]> {
  const remaining = [...schedule]
  await settle()
  for (;;) {
    const index = remaining.findIndex(op => pool.isPending(op))
    if (index < 0) return remaining
    const [op] = remaining.splice(index, 1)
    pool.release(op!)
    await settle()
  }
}
