// @ts-check
/**
 * The release order of one process's loader imports, as `loadrace test`
 * drives it. Every import a loader entry asks for is a decision point: the
 * real import starts at once (real I/O keeps its timing), and its result is
 * handed to the loader when the schedule releases it.
 *
 * In a `row` run the rule is the in-process scheduled loader's
 * (`runtime/drive.ts`): at rest — every requested import read from disk, and
 * no new request for a few turns of the event loop — release the first entry
 * of the row that is waiting, else the earliest waiting entry the row does
 * not name. An entry the row names but that has not been requested yet (it
 * waits for a service, or is mounted by a group not yet applied) simply goes
 * later: nothing is held past the point the loader reaches by itself, so
 * every import is released before the loader's start settles, and an order
 * the process cannot make is recorded as realised, not forced.
 *
 * In a `reference` run nothing is held: imports settle as they would, and
 * the order they settle in is recorded.
 */

/** Turns of the event loop with no new request that count as rest. */
const REST_TURNS = 3
/** Real time after which a release goes ahead although some import is still being read (one that never loads must not hold the rest). */
const SLOW_IMPORT_MS = 1000

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
   * @param {'reference' | 'row'} mode
   * @param {(configuration: string | null) => readonly string[] | undefined} rowOf
   * @param {() => void} changed called after every request and release (the record is rewritten)
   */
  constructor(mode, rowOf, changed) {
    this.mode = mode
    this.rowOf = rowOf
    this.changed = changed
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
  }

  /**
   * An entry asks for its module. `configuration` is the cordis.yml it
   * belongs to; the first request fixes the process's configuration and so
   * its row.
   * @param {string} label
   * @param {string | null} configuration
   * @param {() => Promise<unknown>} importNow the loader's own import
   * @returns {Promise<unknown>}
   */
  request(label, configuration, importNow) {
    if (this.configuration === undefined) {
      this.configuration = configuration
      if (this.mode === 'row') {
        this.row = this.rowOf(configuration)
        this.unknown = this.row === undefined
        this.remaining = [...this.row ?? []]
      }
    }
    this.version++
    this.requested.push({ label, enabledAt: this.released.length })
    const loading = importNow()
    loading.catch(() => this.failedImports.push(label))
    if (this.row === undefined) {
      // Reference run, or a configuration the schedule does not know: the import settles as it would.
      const settle = () => { this.released.push(label); this.changed() }
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

  /** Releases waiting imports one at a time, each at rest, until none waits. */
  async drive() {
    while (this.waiting.size > 0) {
      await this.rest()
      const key = this.choose()
      if (key === undefined) continue
      const waiting = /** @type {WaitingImport} */ (this.waiting.get(key))
      this.waiting.delete(key)
      const index = this.remaining.indexOf(waiting.label)
      if (index >= 0) this.remaining.splice(index, 1)
      this.released.push(waiting.label)
      this.changed()
      waiting.hand()
    }
  }

  /** The key of the import to release: the row's first loaded waiting entry, else the earliest loaded one. */
  choose() {
    const loaded = [...this.waiting].filter(([, waiting]) => waiting.loaded)
    for (const label of this.remaining) {
      const hit = loaded.find(([, waiting]) => waiting.label === label)
      if (hit) return hit[0]
    }
    return loaded[0]?.[0]
  }

  /** Resolves once every waiting import is loaded (or one has been slow for a second) and no request came for a few turns. */
  async rest() {
    for (;;) {
      const pending = [...this.waiting.values()].filter(waiting => !waiting.loaded)
      if (pending.length > 0) {
        /** @type {NodeJS.Timeout | undefined} */
        let timer
        const slow = new Promise(resolve => { timer = setTimeout(resolve, SLOW_IMPORT_MS); timer.unref() })
        await Promise.race([Promise.all(pending.map(waiting => waiting.loadedPromise)), slow])
        clearTimeout(timer)
      }
      const version = this.version
      for (let turn = 0; turn < REST_TURNS; turn++) await new Promise(resolve => setImmediate(resolve))
      if (version !== this.version) continue
      if ([...this.waiting.values()].some(waiting => waiting.loaded)) return
    }
  }
}
