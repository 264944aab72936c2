// @ts-check
/**
 * loadrace's preload. `loadrace test` appends `--import` of this file to the
 * `NODE_OPTIONS` of the command it runs, so it runs first in every Node
 * process and worker thread the command starts. Where the run's schedule
 * file is set, it registers the module hook that reaches every copy of
 * cordis's plugin loader the process loads, and routes those loaders'
 * imports through the process's release order. It touches nothing else:
 * timers, clocks, I/O and the network run as they would.
 */
import { readFileSync } from 'node:fs'
import { register } from 'node:module'
import { installLoaderPatch } from './loader-patch.js'
import { recordWriter } from './process-record.js'
import { RECORDS_VARIABLE, SCHEDULE_VARIABLE } from './protocol.js'
import { ReleaseOrder } from './release.js'

const scheduleFile = process.env[SCHEDULE_VARIABLE]
const records = process.env[RECORDS_VARIABLE]
// `register` is Node's (20.6 and later, as loadrace needs); a process on an older Node runs unperturbed.
if (scheduleFile && records && typeof register === 'function') {
  /** @type {import('./protocol.js').RunSchedule} */
  const schedule = JSON.parse(readFileSync(scheduleFile, 'utf8'))
  /** @type {() => void} */
  let write = () => {}
  let queued = false
  const order = new ReleaseOrder(schedule.mode, configuration => configuration === null ? undefined : schedule.rows[configuration], () => {
    if (queued) return
    queued = true
    setImmediate(() => { queued = false; write() }).unref()
  })
  write = recordWriter(records, order)
  process.on('exit', () => write())
  installLoaderPatch(order, schedule.project)
  register(new URL('./module-hooks.js', import.meta.url))
}
