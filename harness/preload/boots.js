// @ts-check
/**
 * The boots of one process (or worker thread). A boot is a root loader tree
 * and every include below it: a process running an application has one; a
 * vitest worker has one per composition its tests start (a test may start
 * several, and every test file re-evaluates the loader). Each boot has its
 * own release order (`release.js`), under the row of its own configuration
 * (`identity.js`), knows the test that started it (`test-of.js`), and writes
 * its own record, rewritten whole after every request and release,
 * atomically (a temporary file renamed over it), so that whatever ends the
 * process — an exit, a kill, a vitest worker that never fires `exit` — the
 * record on disk is complete up to its last decision.
 */
import { renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { configurationOf, rootTreeOf } from './identity.js'
import { recordFileName } from './protocol.js'
import { drainMicrotasks, ReleaseOrder } from './release.js'
import { testOf } from './test-of.js'

const { setImmediate: realSetImmediate } = globalThis

export class Boot {
  /**
   * @param {import('./protocol.js').RunSchedule} schedule
   * @param {string} folder
   * @param {number} number
   * @param {import('./identity.js').Tree} root
   * @param {import('./protocol.js').BootTest | undefined} test
   */
  constructor(schedule, folder, number, root, test) {
    this.number = number
    this.test = test
    this.file = join(folder, recordFileName(process.pid, threadId, number))
    this.queued = false
    this.settling = false
    /** @type {import('./identity.js').Tree | undefined} held until the configuration is named */
    let held = root
    this.order = new ReleaseOrder(
      schedule.mode,
      configuration => configuration === null ? undefined : schedule.rows[configuration],
      () => this.changed(),
      () => {
        const named = configurationOf(/** @type {import('./identity.js').Tree} */ (held), schedule.project, test?.file)
        held = undefined
        return named
      },
    )
  }

  /**
   * Queues a rewrite of the record (once per turn of the event loop). When
   * every import asked for has been handed over, the record is written
   * before the event loop turns again, once the last entry's apply has run
   * (its microtasks): a vitest worker may be ended as soon as its test is
   * done, before a queued rewrite would run.
   */
  changed() {
    const order = this.order
    if (order.released.length === order.requested.length && order.waiting.size === 0 && !this.settling) {
      this.settling = true
      void drainMicrotasks().then(() => { this.settling = false; this.write() })
    }
    if (this.queued) return
    this.queued = true
    realSetImmediate(() => { if (this.queued) this.write() }).unref()
  }

  /** Writes the record now (nothing before the configuration is named). */
  write() {
    this.queued = false
    const order = this.order
    if (order.configuration === undefined) return
    /** @type {import('./protocol.js').BootRecord} */
    const record = {
      pid: process.pid,
      thread: threadId,
      boot: this.number,
      argv: process.argv,
      mode: order.mode,
      configuration: order.configuration,
      ...this.test === undefined ? {} : { test: this.test },
      requested: order.requested,
      released: order.released,
      ...order.row === undefined ? {} : { row: order.row },
      ...order.unknown ? { unknown: /** @type {const} */ (true) } : {},
      failedImports: order.failedImports,
      applies: order.applies.applies,
    }
    try {
      writeFileSync(`${this.file}.tmp`, JSON.stringify(record))
      renameSync(`${this.file}.tmp`, this.file)
    } catch {
      // The run's folder is gone (the driver was interrupted): nothing to report to.
    }
  }
}

export class Boots {
  /**
   * @param {import('./protocol.js').RunSchedule} schedule
   * @param {string} folder the run's records folder
   */
  constructor(schedule, folder) {
    this.schedule = schedule
    this.folder = folder
    /** @type {WeakMap<object, Boot>} */
    this.byRoot = new WeakMap()
    /** Every boot of the thread (a queued rewrite is flushed at exit). @type {Set<Boot>} */
    this.all = new Set()
    this.count = 0
  }

  /**
   * The boot `tree` belongs to, started now if it is the first import of its root.
   * @param {import('./identity.js').Tree} tree
   * @param {object | undefined} realm the global of the realm the loader copy was evaluated in
   */
  of(tree, realm) {
    const root = rootTreeOf(tree)
    let boot = this.byRoot.get(root)
    if (boot === undefined) {
      boot = new Boot(this.schedule, this.folder, ++this.count, root, testOf(realm, this.schedule.project))
      this.byRoot.set(root, boot)
      this.all.add(boot)
    }
    return boot
  }

  /** Writes every boot's record whose rewrite is still queued (the process is exiting). */
  flush() {
    for (const boot of this.all) if (boot.queued) boot.write()
  }
}
