/**
 * Work Node runs on its thread pool that `process.getActiveResourcesInfo()`
 * does not list: a zlib stream's compression step (gzip, deflate, brotli,
 * zstd, and the one-call `zlib.gzip(…)` forms built on them) and crypto's
 * asynchronous jobs (`randomBytes`, `pbkdf2`, `scrypt`, key generation, …).
 * Each finishes by calling back into JavaScript, so while one is in flight
 * the system is not at rest and not stuck, though no listed resource says so.
 *
 * Seen through an async hook: a crypto job run asynchronously (Node gives it
 * its `ondone` callback before it runs it) is pending from its creation to
 * that callback; a job run synchronously (`randomFillSync`, and
 * `randomUUID`'s cache refills built on it) never calls back, and is not
 * counted; a zlib handle is pending from each asynchronous `write` it is
 * given to the callback that write produces.
 */
import { createHook } from 'node:async_hooks'
import { destroyWatch } from './destroy-watch.ts'

const pending = new Set<number>()
/** Crypto jobs created and not yet called back, until it is known whether they run asynchronously. */
const jobs = new Map<number, WeakRef<{ ondone?: unknown }>>()

/** Resource types of one-shot thread-pool jobs (crypto's `…REQUEST` jobs); file-system and DNS requests are listed by Node and counted there. */
function isThreadPoolJob(type: string): boolean {
  return type.endsWith('REQUEST') && !type.startsWith('FSREQ') && !type.startsWith('GETADDRINFO') && !type.startsWith('GETNAMEINFO') && !type.startsWith('QUERY')
}

interface AsyncWritable {
  write(...args: unknown[]): unknown
}

/** Hears of a handle or job destroyed without calling back; on only while one is pending (see `destroy-watch.ts`). */
const destroyed = destroyWatch((id) => {
  pending.delete(id)
  jobs.delete(id)
}, () => pending.size === 0 && jobs.size === 0)

const hook = createHook({
  init(id, type, _trigger, resource) {
    if (type === 'ZLIB') {
      const handle = resource as AsyncWritable
      const write = handle.write
      if (typeof write !== 'function') return
      handle.write = function (this: AsyncWritable, ...args: unknown[]) {
        pending.add(id)
        destroyed.tracking()
        return write.apply(this, args)
      }
    } else if (isThreadPoolJob(type)) {
      jobs.set(id, new WeakRef(resource as { ondone?: unknown }))
      destroyed.tracking()
    }
  },
  before(id) {
    const wasPending = pending.delete(id)
    if (jobs.delete(id) || wasPending) destroyed.settle()
  },
})
hook.enable()

/** Whether a zlib step or a crypto job is running on the thread pool: work that will call back when it completes. */
export function threadPoolWorkInFlight(): boolean {
  // A job is created, given its callback and run in one synchronous span, so
  // by the time anyone asks, a job without a callback ran synchronously.
  for (const [id, job] of jobs) {
    if (typeof job.deref()?.ondone !== 'function') jobs.delete(id)
  }
  destroyed.settle()
  return pending.size > 0 || jobs.size > 0
}
