import { Worker } from 'node:worker_threads'

const BOOTSTRAP = new URL('./thread-bootstrap.js', import.meta.url)

/** What a bench worker thread answers to one job. */
export type ThreadReply<R> = { ok: true, index: number, result: R } | { ok: false, index: number, message: string }

/**
 * Runs `jobs` on `size` worker threads, each loading the TypeScript module
 * `entry` (which answers every `{ index, job }` message with a `ThreadReply`).
 * Jobs are handed out one at a time, so a slow job does not hold others back.
 * Resolves to the results in job order; rejects on the first failed job.
 */
export function runOnThreads<J, R>(
  entry: URL,
  size: number,
  jobs: readonly J[],
  onResult?: (result: R, done: number, total: number) => void,
): Promise<R[]> {
  const results: R[] = new Array<R>(jobs.length)
  const workers: Worker[] = []
  let next = 0
  let done = 0
  return new Promise<R[]>((resolve, reject) => {
    let stopped = false
    const stop = (error?: Error) => {
      if (stopped) return
      stopped = true
      for (const worker of workers) void worker.terminate()
      if (error) reject(error)
      else resolve(results)
    }
    const feed = (worker: Worker) => {
      if (next < jobs.length) {
        worker.postMessage({ index: next, job: jobs[next] })
        next++
      }
    }
    if (jobs.length === 0) return resolve(results)
    for (let i = 0; i < Math.min(size, jobs.length); i++) {
      const worker = new Worker(BOOTSTRAP, { workerData: { entry: entry.href } })
      workers.push(worker)
      worker.on('message', (reply: ThreadReply<R>) => {
        if (!reply.ok) return stop(new Error(`bench thread failed job ${reply.index}: ${reply.message}`))
        results[reply.index] = reply.result
        done++
        onResult?.(reply.result, done, jobs.length)
        if (done === jobs.length) stop()
        else feed(worker)
      })
      worker.on('error', error => stop(error))
      worker.on('exit', code => stop(new Error(`a bench thread exited (code ${code}) with ${jobs.length - done} jobs unfinished`)))
      feed(worker)
    }
  })
}
