// @ts-check
/**
 * The release order of one boot's loader imports, as `loadrace test`
 * drives it. Every import a loader entry asks for is a decision point: the
 * real import starts at once (real I/O keeps its timing), and its result is
 * handed to the loader when the schedule releases it.
 *
 * In a `row` run the rule is the in-process scheduler's, from the one module
 * both import (`release-rule.js`): release the first entry of the row whose
 * module has been read, else the earliest read entry the row does not name.
 * An entry the row names that has not been requested yet (it waits for a
 * group or include not applied yet) simply goes later, so an order the
 * process cannot make is recorded as realised, not forced.
 *
 * Nothing is held past the point the loader reaches by itself. The imports
 * waiting at one time are a wave: once every module of the wave has been read
 * (the loader could not have finished before that either), the whole wave is
 * released within one turn of the event loop — one entry at a time, each
 * followed only by microtasks, so each entry's apply and registrations run
 * before the next is handed over while no timer, I/O callback or client
 * message can run in between. The application therefore never sees a
 * half-released wave: it answers nobody with an entry still held. A module
 * slower than {@link SLOW_IMPORT_MS} does not hold the rest of its wave.
 *
 * In the `natural` run nothing is held: imports settle as they would, and
 * the order they settle in is recorded.
 *
 * What the boot is — its configuration, and so its row — is known only once
 * its first wave has been read: a cordis.yml's entries are requested one by
 * one as its include creates them, and a test's temporary cordis.yml is
 * known by the entries it holds, not by its path. So a `row` boot holds its
 * first wave (as it would anyway) and looks its row up at the first release
 * decision; the `natural` run names it when its first import settles. A boot
 * whose configuration the schedule does not know then goes on unperturbed.
 *
 * The timer functions are the ones the process had when the preload loaded:
 * a test's fake timers (`vi.useFakeTimers()`) must not hold the fallback.
 */

import { AppliesRecorder } from './applies.js'
import { nextRelease } from './release-rule.js'

const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis

/** Microtask turns after each release: the released entry's apply and registrations run before the next release. */
const DRAIN_TURNS = 200
/** Real time after which a wave goes ahead without an import still being read (one that never loads must not hold the rest). */
export const SLOW_IMPORT_MS = 30_000

/** Lets pending microtasks run (the released entry's apply), without letting the event loop turn. */
export async function drainMicrotasks() {
  for (let turn = 0; turn < DRAIN_TURNS; turn++) await null
}

/**
 * @typedef {{
 *   label: string,
 *   enabledAt: number,
 *   loaded: boolean,
 *   loadedPromise: Promise<unknown>,
 *   hand: () => void,
 * }} WaitingImport
 */

export class ReleaseOrder {
  /**
   * @param {'natural' | 'row'} mode
   * @param {(configuration: string | null) => readonly string[] | undefined} rowOf
   * @param {() => void} changed called after every request and release (the record is rewritten)
   * @param {() => string | null} identify names the boot's configuration (once its first wave has been read)
   */
  constructor(mode, rowOf, changed, identify) {
    this.mode = mode
    this.rowOf = rowOf
    this.changed = changed
    this.identify = identify
    /** @type {string | null | undefined} */
    this.configuration = undefined
    /** @type {readonly string[] | undefined} */
    this.row = undefined
    /** @type {string[]} */
    this.remaining = []
    /** @type {Map<string, WaitingImport>} */
    this.waiting = new Map()
    /** @type {{ label: string, enabledAt: number }[]} */
    this.requested = []
    /** @type {string[]} */
    this.released = []
    /** @type {string[]} */
    this.failedImports = []
    this.version = 0
    /** @type {Promise<void> | undefined} */
    this.driving = undefined
    this.unknown = false
    /** The applies of this boot's loader, as they happen (`applies.js`). */
    this.applies = new AppliesRecorder(() => this.released.length)
  }

  /** Names the boot's configuration and looks its row up, once. */
  identified() {
    if (this.configuration !== undefined) return
    this.configuration = this.identify()
    if (this.mode !== 'row') return
    this.row = this.rowOf(this.configuration)
    this.unknown = this.row === undefined
    this.remaining = [...this.row ?? []]
  }

  /** Whether imports pass through as they settle: the natural run, or a boot whose configuration has no row. */
  get unperturbed() {
    return this.mode === 'natural' || (this.configuration !== undefined && this.row === undefined)
  }

  /**
   * An entry asks for its module.
   * @param {string} label
   * @param {() => Promise<unknown>} importNow the loader's own import
   * @returns {Promise<unknown>}
   */
  request(label, importNow) {
    this.version++
    this.requested.push({ label, enabledAt: this.released.length })
    const loading = importNow()
    loading.catch(() => this.failedImports.push(label))
    if (this.unperturbed) {
      const settle = () => { this.identified(); this.released.push(label); this.changed() }
      loading.then(settle, settle)
      this.changed()
      return loading
    }
    return new Promise((resolve, reject) => {
      /** @type {WaitingImport} */
      const waiting = {
        label,
        enabledAt: this.released.length,
        loaded: false,
        loadedPromise: loading.then(() => {}, () => {}),
        hand: () => loading.then(resolve, reject),
      }
      waiting.loadedPromise.then(() => { waiting.loaded = true })
      this.waiting.set(`${label}\u0000${this.version}`, waiting)
      this.changed()
      this.driving ??= this.drive().finally(() => { this.driving = undefined })
    })
  }

  /** Releases the waiting imports wave by wave, each wave within one turn of the event loop, until none waits. */
  async drive() {
    while (this.waiting.size > 0) {
      await this.waveRead()
      this.identified()
      for (let key = this.choose(); key !== undefined; key = this.choose()) {
        const waiting = /** @type {WaitingImport} */ (this.waiting.get(key))
        this.waiting.delete(key)
        const index = this.remaining.indexOf(waiting.label)
        if (index >= 0) this.remaining.splice(index, 1)
        this.released.push(waiting.label)
        this.changed()
        waiting.hand()
        await drainMicrotasks()
      }
    }
  }

  /** The key of the import to release, by the release rule: the row's first loaded waiting entry, else the earliest loaded one. */
  choose() {
    const loaded = [...this.waiting].filter(([, waiting]) => waiting.loaded)
    const next = nextRelease(this.remaining, label => loaded.some(([, waiting]) => waiting.label === label), () => loaded[0]?.[1].label)
    return next === undefined ? undefined : loaded.find(([, waiting]) => waiting.label === next.label)?.[0]
  }

  /**
   * Resolves once every waiting import has been read (those requested
   * meanwhile included), or, after {@link SLOW_IMPORT_MS}, once at least one
   * has: a wave is what has been read by then.
   */
  async waveRead() {
    await drainMicrotasks()
    /** @type {NodeJS.Timeout | undefined} */
    let timer
    let slow = false
    const late = new Promise((resolve) => { timer = realSetTimeout(() => { slow = true; resolve(undefined) }, SLOW_IMPORT_MS); timer.unref() })
    try {
      for (;;) {
        const unread = [...this.waiting.values()].filter(waiting => !waiting.loaded)
        if (unread.length === 0) return
        const anyRead = [...this.waiting.values()].some(waiting => waiting.loaded)
        if (slow && anyRead) return
        await Promise.race([slow ? Promise.race(unread.map(waiting => waiting.loadedPromise)) : Promise.all(unread.map(waiting => waiting.loadedPromise)), late])
        await drainMicrotasks()
      }
    } finally {
      realClearTimeout(timer)
    }
  }
}
