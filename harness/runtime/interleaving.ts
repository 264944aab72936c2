import type { Scenario } from '../scenario/scenario.ts'
import type { Schedule } from '../space/space.ts'
import type { Target } from '../targets/target.ts'
import { boot, setUp, turns } from './phases.ts'
import { closeInterleaving, finish, openInterleaving, type InterleavingOptions, type InterleavingResult } from './run-state.ts'

export { APPLICATION_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, defaultTimeoutOf, type InterleavingOptions, type InterleavingPhase, type InterleavingResult } from './run-state.ts'

/**
 * Runs one interleaving of `scenario` against `target`: a fresh root context,
 * the base composition, a scheduled loader whose every import, batch gap and
 * timer waits for the scheduler, the operations released in `schedule` order
 * (each followed by quiescence), boot, the scenario's turns, and the
 * projection. Never hangs: unsettleable work is reported as stuck. The
 * system's crash (`process.exit`, an uncaught exception, an unhandled
 * rejection) ends it there, with outcome `crashed`.
 */
export async function runInterleaving(scenario: Scenario, target: Target, schedule: Schedule, options: InterleavingOptions = {}): Promise<InterleavingResult> {
  const system = await target.system(scenario.system)
  const run = openInterleaving(scenario, target, system, schedule, options)
  try {
    const phases = (async () => {
      await setUp(run)
      return await boot(run) ?? await turns(run)
    })()
    // The system's crash ends the interleaving where it happened (see crashes.ts).
    return await Promise.race([phases, run.endedEarly]) ?? finish(run, undefined, null)
  } finally {
    await closeInterleaving(run)
  }
}
