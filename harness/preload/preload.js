// @ts-check
/**
 * loadrace's preload. `loadrace test` appends `--import` of this file to the
 * `NODE_OPTIONS` of the command it runs, so it runs first in every Node
 * process and worker thread the command starts. Where the run's schedule
 * file is set, it registers the module hook that reaches every copy of
 * cordis's plugin loader the process loads, and routes those loaders'
 * imports through the release order of the boot that asks (`boots.js`); a
 * vitest worker gets the same from the loader vitest's module runner
 * evaluates (`vitest-plugin.js`). It touches nothing else:
 * timers, clocks, I/O and the network run as they would.
 */
import { readFileSync } from 'node:fs'
import * as nodeModule from 'node:module'
import { Boots } from './boots.js'
import { installLoaderPatch } from './loader-patch.js'
import { registerSyncHooks } from './module-hooks.js'
import { RECORDS_VARIABLE, SCHEDULE_VARIABLE } from './protocol.js'

const scheduleFile = process.env[SCHEDULE_VARIABLE]
const records = process.env[RECORDS_VARIABLE]
// Node 22.15 and later run module hooks in the process's own thread (`registerHooks`), which costs a module load
// nothing; Node 20 has only the hooks thread (`register`). A process on a Node with neither runs unperturbed.
const { registerHooks, register } = /** @type {{ registerHooks?: (hooks: object) => unknown, register?: (url: URL) => void }} */ (nodeModule)
if (scheduleFile && records && (typeof registerHooks === 'function' || typeof register === 'function')) {
  /** @type {import('./protocol.js').RunSchedule} */
  const schedule = JSON.parse(readFileSync(scheduleFile, 'utf8'))
  const boots = new Boots(schedule, records)
  process.on('exit', () => boots.flush())
  installLoaderPatch(boots)
  if (typeof registerHooks === 'function') registerSyncHooks(/** @type {(hooks: object) => { deregister(): void }} */ (registerHooks))
  else register?.(new URL('./module-hooks.js', import.meta.url))
}
