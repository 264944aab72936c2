// @ts-check
/**
 * Writes what this process (or worker thread) did into the run's records
 * folder: rewritten whole after every request and release, atomically
 * (a temporary file renamed over the record), so that whatever ends the
 * process — an exit, a kill by the test that started it — the record on
 * disk is complete up to its last decision.
 */
import { renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { recordFileName } from './protocol.js'

/**
 * @param {string} folder
 * @param {import('./release.js').ReleaseOrder} order
 * @returns {() => void} writes the record now
 */
export function recordWriter(folder, order) {
  const file = join(folder, recordFileName(process.pid, threadId))
  const temporary = `${file}.tmp`
  return () => {
    if (order.configuration === undefined) return
    /** @type {import('./protocol.js').ProcessRecord} */
    const record = {
      pid: process.pid,
      thread: threadId,
      argv: process.argv,
      mode: order.mode,
      configuration: order.configuration,
      requested: order.requested,
      released: order.released,
      ...order.row === undefined ? {} : { row: order.row },
      ...order.unknown ? { unknown: true } : {},
      failedImports: order.failedImports,
      applies: order.applies.applies,
    }
    try {
      writeFileSync(temporary, JSON.stringify(record))
      renameSync(temporary, file)
    } catch {
      // The run's folder is gone (the driver was interrupted): nothing to report to.
    }
  }
}
