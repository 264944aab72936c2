// @ts-check
/**
 * The applies of one boot, as cordis makes them: every plugin applied under a
 * loader entry — the entry's own plugin, and every plugin it mounts (an app
 * entry's spine) — in the order they began to apply, each with the plugin
 * that mounted it and the plugins whose services it injected. A plugin
 * applies once every service it injects is provided, so when it applies is a
 * function of when the entries under which its mounter and its providers
 * apply were released: the structure a plan over applies aims at
 * (`space/applies.ts`). The in-process scheduler and the preload of
 * `loadrace test` both record with this module.
 *
 * A plugin is named by its unit: the label of the entry it runs under (by
 * the one labelling rule, `scenario/entry-labels.js`), and, when it is not
 * that entry's own plugin, ` › ` and its plugin's name (`base.acp-agent ›
 * tool-jobs`); a second plugin of the same name under the same entry takes
 * `#2`. A plugin under no entry (the base composition) is `(base)` and its
 * name.
 *
 * The recorder listens to cordis's `internal/status` through a hook added to
 * the root's listener list directly, not `ctx.on`: that would make an effect
 * on a fiber of the system, which the system could see.
 */
import { labelOfEntry } from '../scenario/entry-labels.js'

/** Where a plugin under no loader entry runs: the base composition. */
export const BASE_UNIT = '(base)'
/** Between an entry's label and the name of a plugin it mounts. */
export const MOUNT_SEPARATOR = ' › '
/** cordis's fiber state while a plugin's apply runs (`Fiber#state`). */
const LOADING = 1

/**
 * @typedef {{
 *   unit: string,
 *   entry: string | null,
 *   parent: string | null,
 *   providers: string[],
 *   released: number,
 * }} Apply
 * One apply: the unit, the label of the entry it runs under (null: none),
 * the unit that mounted it (null: the root), the units that provided the
 * services it injects, and how many of the boot's imports had been released
 * when it began.
 */

/**
 * @typedef {{
 *   runtime: { name?: string } | null,
 *   entry?: import('../scenario/entry-labels.js').LoaderEntry & { fiber?: Fiber },
 *   parent: { fiber: Fiber },
 *   inject?: Record<string, unknown>,
 *   _store?: Record<string, { fiber?: Fiber } | undefined>,
 *   state?: number,
 * }} Fiber
 */

export class AppliesRecorder {
  /**
   * @param {() => number} released how many of the boot's imports have been released now
   */
  constructor(released) {
    this.released = released
    /** @type {Apply[]} */
    this.applies = []
    /** @type {WeakMap<object, string>} */
    this.units = new WeakMap()
    /** @type {Set<string>} */
    this.taken = new Set()
    /** @type {WeakSet<object>} */
    this.watched = new WeakSet()
  }

  /**
   * Starts recording the applies of the cordis root `root` (once per root).
   * @param {{ events?: { _hooks?: Record<string, unknown[]> } } | undefined} root
   */
  watch(root) {
    const hooks = root?.events?._hooks
    if (root === undefined || hooks === undefined || this.watched.has(root)) return
    this.watched.add(root)
    const list = /** @type {unknown[]} */ (hooks['internal/status'] ??= [])
    list.push({ ctx: root, global: true, callback: (/** @type {Fiber} */ fiber) => this.statusChanged(fiber) })
  }

  /** @param {Fiber} fiber */
  statusChanged(fiber) {
    if (fiber?.state !== LOADING || fiber.runtime === null || fiber.runtime === undefined) return
    const unit = this.unitOf(fiber)
    if (unit === undefined) return
    const parentFiber = fiber.parent?.fiber
    const parent = parentFiber === undefined || parentFiber === fiber || parentFiber.runtime === null ? null : this.unitOf(parentFiber) ?? null
    const providers = Object.keys(fiber.inject ?? {}).flatMap((name) => {
      const provider = fiber._store?.[name]?.fiber
      const label = provider === undefined || provider.runtime === null ? undefined : this.unitOf(provider)
      return label === undefined ? [] : [label]
    })
    this.applies.push({ unit, entry: entryOf(fiber)?.label ?? null, parent, providers: [...new Set(providers)], released: this.released() })
  }

  /**
   * The unit of `fiber`, named once and kept.
   * @param {Fiber} fiber
   * @returns {string | undefined}
   */
  unitOf(fiber) {
    const known = this.units.get(fiber)
    if (known !== undefined) return known
    const carrier = entryOf(fiber)
    const own = carrier !== undefined && carrier.fiber === fiber
    const name = typeof fiber.runtime?.name === 'string' && fiber.runtime.name !== '' ? fiber.runtime.name : 'anonymous'
    const base = own ? carrier.label : `${carrier?.label ?? BASE_UNIT}${MOUNT_SEPARATOR}${name}`
    let unit = base
    for (let k = 2; this.taken.has(unit); k++) unit = `${base}#${k}`
    this.taken.add(unit)
    this.units.set(fiber, unit)
    return unit
  }
}

/**
 * The loader entry `fiber` runs under: its own, or its nearest ancestor's; with its label.
 * @param {Fiber} fiber
 * @returns {{ label: string, fiber: Fiber | undefined } | undefined}
 */
function entryOf(fiber) {
  for (let cursor = fiber; cursor !== undefined && cursor.runtime !== null; cursor = cursor.parent?.fiber) {
    if (cursor.entry !== undefined) return { label: labelOfEntry(cursor.entry), fiber: cursor.entry.fiber ?? cursor }
    if (cursor.parent?.fiber === cursor) break
  }
  return undefined
}
