import type { Scheduler } from 'fast-check'
import type { ScheduleDriver } from '../harness/runtime/drive.ts'

/**
 * The peer: fast-check's `fc.scheduler` choosing the release order of the
 * same scheduled loader the harness drives. Every operation that becomes
 * pending is wrapped in `scheduler.schedule(…)` with its label, and its
 * release is chained on the scheduled promise; fast-check then picks which
 * wrapped task settles next (uniformly among those waiting). After each
 * release the interleaving settles to quiescence, exactly as under the
 * harness's own driver, before fast-check picks again. The planned schedule
 * is ignored: the pool's release order is the effective schedule.
 */
export function fastCheckDriver(scheduler: Scheduler): ScheduleDriver {
  return async (pool, _schedule, settle) => {
    const wrapped = new Set<string>()
    await settle()
    for (;;) {
      for (const op of pool.pending()) {
        if (wrapped.has(op)) continue
        wrapped.add(op)
        void scheduler.schedule(Promise.resolve(op), op).then(() => pool.release(op))
      }
      if (scheduler.count() === 0) return
      await scheduler.waitNext(1)
      await settle()
    }
  }
}
