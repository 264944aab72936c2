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
 * A plugin is named by its unit, the same in every run: an entry's own
 * plugin by the entry's label (by the one labelling rule,
 * `scenario/entry-labels.js`); any other by the unit of the plugin that
 * mounted it, ` › ` and its plugin's name (`base.acp-agent › tool-jobs`),
 * with `#k` for the k-th plugin of that name the same mounter created (its
 * code creates them in the same order whatever the load order). A plugin
 * under no entry (the base composition) descends from `(base)`.
 *
 * The recorder listens to cordis's `internal/plugin` (a plugin created) and
 * `internal/status` (a plugin's state changed) through hooks added to the
 * root's listener lists directly, not `ctx.on`: that would make an effect on
 * a fiber of the system, which the system could see.
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
    /** The plugins each plugin created, in the order it created them. @type {WeakMap<object, object[]>} */
    this.created = new WeakMap()
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
    listenOnRoot(root, 'internal/plugin', fiber => this.pluginCreated(/** @type {Fiber} */ (fiber)), true)
    listenOnRoot(root, 'internal/status', fiber => this.statusChanged(/** @type {Fiber} */ (fiber)), true)
  }

  /** @param {Fiber} fiber */
  pluginCreated(fiber) {
    const parent = fiber?.parent?.fiber
    if (parent === undefined || parent === fiber || /** @type {{ uid?: unknown }} */ (fiber).uid === null) return
    const siblings = this.created.get(parent) ?? []
    if (!siblings.includes(fiber)) siblings.push(fiber)
    this.created.set(parent, siblings)
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
    const parent = fiber.parent?.fiber
    let unit
    if (carrier !== undefined && ownFiber(fiber)) unit = carrier.label
    else {
      const name = nameOf(fiber)
      const mounter = parent === undefined || parent === fiber || parent.runtime === null ? BASE_UNIT : this.unitOf(parent) ?? BASE_UNIT
      const siblings = parent === undefined ? [] : this.created.get(parent) ?? []
      const earlier = siblings.slice(0, Math.max(0, siblings.indexOf(fiber))).filter(sibling => nameOf(/** @type {Fiber} */ (sibling)) === name).length
      unit = `${mounter}${MOUNT_SEPARATOR}${name}${earlier > 0 ? `#${earlier + 1}` : ''}`
    }
    this.units.set(fiber, unit)
    return unit
  }
}

/**
 * Adds `callback` to the cordis root's own listener list for `event`, as
 * cordis keeps them, rather than through `ctx.on`, which would make an effect
 * on a fiber of the system that the system could see. `global`: called for
 * every emit; else only for emits root itself sees (a service in root's
 * isolation, as `root.reflect.get` would find it).
 * @param {{ events?: { _hooks?: Record<string, unknown[]> } }} root
 * @param {string} event
 * @param {(...args: unknown[]) => void} callback
 * @param {boolean} global
 */
export function listenOnRoot(root, event, callback, global) {
  const hooks = root.events?._hooks
  if (hooks === undefined) return
  ;(hooks[event] ??= []).push({ ctx: root, global, callback })
}

/**
 * Whether `fiber` is its entry's own plugin (the loader applied it for the
 * entry), not one mounted below it: its mounter runs under no entry, or
 * under another (the loader's own test; an entry's `fiber` field is not
 * always this very object).
 * @param {Fiber} fiber
 */
function ownFiber(fiber) {
  return fiber.entry !== undefined && fiber.parent?.fiber?.entry !== fiber.entry
}

/**
 * A plugin's name: its runtime's, else `anonymous` (an inline `ctx.inject`).
 * @param {Fiber} fiber
 */
function nameOf(fiber) {
  return typeof fiber.runtime?.name === 'string' && fiber.runtime.name !== '' ? fiber.runtime.name : 'anonymous'
}

/**
 * The loader entry `fiber` runs under: its own, or its nearest ancestor's; its label.
 * @param {Fiber} fiber
 * @returns {{ label: string } | undefined}
 */
function entryOf(fiber) {
  for (let cursor = fiber; cursor !== undefined && cursor.runtime !== null; cursor = cursor.parent?.fiber) {
    if (cursor.entry !== undefined) return { label: labelOfEntry(cursor.entry) }
    if (cursor.parent?.fiber === cursor) break
  }
  return undefined
}
