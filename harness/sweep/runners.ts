import { CURRENT_HOST } from '../hosts/host.ts'
import { runnersFor, type Runners } from '../runners/by-host.ts'
import type { Runner, RunSettings } from '../runners/runner.ts'

/** The runners a sweep runs on, and their lifetime. */
export interface SweepRunners {
  /** The runner on this process's own host: in process for one worker, a pool of worker processes for more. */
  runner: Runner
  /** The runner of each host (other hosts run child processes on their Node and environment). */
  runners: Runners
  /** Stops every runner started. */
  close(): Promise<void>
}

/** Starts the runners of a sweep (or a matrix, or a comparison of targets) with `workers` workers. */
export function sweepRunners(settings: { workers: number } & RunSettings): SweepRunners {
  const runners = runnersFor(settings)
  return { runner: runners.of(CURRENT_HOST), runners, close: () => runners.close() }
}
