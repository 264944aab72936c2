import { CURRENT_HOST, isCurrentProcess, type Host } from '../hosts/host.ts'
import { inProcessRunner, type Runner, type RunSettings } from './runner.ts'
import { workerPool } from './worker-pool.ts'

/** One runner per host, each started on first use. */
export interface Runners {
  /** The runner of `host`. */
  of(host: Host): Runner
  /** The runner of `host` that runs every interleaving in a process of its own (`process: fresh`); absent where there are no worker processes. */
  fresh?(host: Host): Runner
  close(): Promise<void>
}

/**
 * The runners of a sweep: on this process's own host, the in-process runner
 * for one worker and a pool of worker processes for more; on any other host, a
 * pool of child processes running that host's Node with its environment;
 * for a scenario whose interleavings each need a process of their own, a
 * pool of fresh processes on either.
 */
export function runnersFor(options: { workers: number } & RunSettings): Runners {
  const { workers, ...settings } = options
  const started = new Map<string, Runner>()
  const once = (key: string, start: () => Runner) => {
    let runner = started.get(key)
    if (!runner) {
      runner = start()
      started.set(key, runner)
    }
    return runner
  }
  return {
    of(host) {
      return once(host.name, () => isCurrentProcess(host)
        ? workers > 1 ? workerPool({ size: workers, ...settings }) : inProcessRunner(settings)
        : workerPool({ size: workers, host, ...settings }))
    },
    fresh(host) {
      return once(`${host.name} fresh`, () => workerPool({ size: workers, host, fresh: true, ...settings }))
    },
    async close() {
      const runners = [...started.values()]
      started.clear()
      await Promise.all(runners.map(runner => runner.close()))
    },
  }
}

/** Runners that run everything on this process's own host through `runner` (for callers that bring their own runner). */
export function currentHostOnly(runner: Runner): Runners {
  return {
    of(host) {
      if (!isCurrentProcess(host)) throw new Error(`no runner for host ${host.name}: only ${CURRENT_HOST.name} is available here`)
      return runner
    },
    async close() {},
  }
}
