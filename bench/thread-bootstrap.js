// Entry point of a bench worker thread: a worker does not inherit the parent's
// TypeScript loader, so register tsx here, then start the TypeScript module
// named by the pool.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
// tsx turns source maps on; cordis builds many stack traces, which they make slow.
process.setSourceMapsEnabled(false)
await import(workerData.entry)
