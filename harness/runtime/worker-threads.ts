/**
 * Worker threads the system starts. `node:worker_threads`' `Worker` is
 * replaced (before any plugin imports it) by a subclass that, when the
 * system's code starts a thread, preloads the held clocks into it
 * (`held-clocks.js`: the thread's clocks start at the held time of the moment
 * it was started and step a microsecond per read) and records the thread as
 * real I/O of the interleaving (`real-io.ts`), which terminates it at
 * teardown. Started by loadrace's own code, it is the plain `Worker`.
 */
import { syncBuiltinESMExports } from 'node:module'
import workerThreads, { type WorkerOptions } from 'node:worker_threads'
import { threadStarted } from './real-io.ts'
import { currentScope } from './sut-context.ts'

const CLOCKS = new URL('./held-clocks.js', import.meta.url).href

/** The `--import` that holds a new thread's clocks from held time `start`. */
function clockPreload(start: number): string {
  const code = `import { holdClocks, steppedReading } from ${JSON.stringify(CLOCKS)}; holdClocks(steppedReading(${start}))`
  return `data:text/javascript,${encodeURIComponent(code)}`
}

const PlainWorker = workerThreads.Worker

class SystemWorker extends PlainWorker {
  constructor(filename: string | URL, options: WorkerOptions = {}) {
    const scope = currentScope()
    const start = scope === undefined ? undefined : scope.monitor.clockReading?.(scope.chain, 'Worker')
    super(filename, start === undefined ? options : { ...options, execArgv: [...options.execArgv ?? process.execArgv, '--import', clockPreload(start)] })
    if (scope === undefined) return
    const started = threadStarted(this)
    this.once('exit', () => started.exited())
  }
}

workerThreads.Worker = SystemWorker
syncBuiltinESMExports()
