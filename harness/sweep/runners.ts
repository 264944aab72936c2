import { CURRENT_HOST } from '../hosts/host.ts'
import { runnersFor, type Runners } from '../runners/by-host.ts'
import type { Runner } from '../runners/runner.ts'
import type { Settings } from '../settings/settings.ts'

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
export function sweepRunners(settings: Pick<Settings, 'workers' | 'timeoutMs' | 'keepWorkdirs'>): SweepRunners {
  // Only what every interleaving needs goes to the runners (and, through them, to each worker process).
  const runners = runnersFor({ workers: settings.workers, timeoutMs: settings.timeoutMs, keepWorkdirs: settings.keepWorkdirs })
  return { runner: runners.of(CURRENT_HOST), runners, close: () => runners.close() }
}
