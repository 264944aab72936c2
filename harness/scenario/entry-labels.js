// @ts-check
/**
 * How loadrace names a loader entry. A scenario's plugin ids and a
 * cordis.yml's entry ids become operation labels (in schedules, replay
 * tokens, blame) and the names of inactive entries, all of which use the
 * label alphabet `[A-Za-z0-9][A-Za-z0-9._-]*`.
 *
 * The mapping is fixed: the loader id below loadrace's bootstrap include
 * (dsh's app boot mounts a cordis.yml the same way, through an include entry
 * with the pinned id `include`), each `:` (the loader's separator for entries
 * of a nested include) written as `.`, every other character outside the
 * alphabet as `_`, and an `x` in front when the result would not start with a
 * letter or digit. `tool-fs` stays `tool-fs`; `base:tool-cordis` (entry
 * `tool-cordis` of the include entry `base`) is `base.tool-cordis`.
 *
 * Plain JavaScript: the preload of `loadrace test` (`harness/preload/`) names
 * the entries of the system's own loader with it, inside processes that have
 * no TypeScript loader.
 */

/** The id of the include entry a cordis.yml is mounted under (dsh's app boot pins the same id). */
export const BOOTSTRAP_INCLUDE_ID = 'include'

/** The loader's separator between an include entry's id and the ids of the entries it mounts. */
export const LOADER_ID_SEPARATOR = ':'

const OUTSIDE_ALPHABET = /[^A-Za-z0-9._-]/g

/**
 * The label of the loader entry `loaderId` (its `Entry#id`).
 * @param {string} loaderId
 * @returns {string}
 */
export function entryLabel(loaderId) {
  const prefix = BOOTSTRAP_INCLUDE_ID + LOADER_ID_SEPARATOR
  const below = loaderId.startsWith(prefix) ? loaderId.slice(prefix.length) : loaderId
  const mapped = below.split(LOADER_ID_SEPARATOR).map(part => part.replace(OUTSIDE_ALPHABET, '_')).join('.')
  return /^[A-Za-z0-9]/.test(mapped) ? mapped : `x${mapped}`
}

/** The options of entries configured without an `id` (the loader makes a random one up for each). */
const withoutId = new WeakSet()

/**
 * Marks an entry's options as configured without an `id`, before the loader
 * makes one up: its label then comes from its plugin's name (see
 * {@link labelOfEntry}). loadrace's own scenarios refuse such entries; the
 * preload meets them in a user's cordis.yml.
 * @param {object} options
 */
export function markWithoutId(options) {
  withoutId.add(options)
}

/**
 * @typedef {{
 *   id: string,
 *   options: object & { name: string },
 *   getOuterStack?: unknown,
 *   parent: { tree: { ctx?: { fiber?: { entry?: LoaderEntry } } } },
 * }} LoaderEntry
 */

/**
 * The entry of `tree` whose module import is being asked for: each entry of
 * a tree hands the loader's `import` its own `getOuterStack`.
 * @template {LoaderEntry} E
 * @param {{ store: Record<string, E> }} tree
 * @param {unknown} getOuterStack
 * @returns {E | undefined}
 */
export function entryOfImport(tree, getOuterStack) {
  return Object.values(tree.store).find(candidate => candidate.getOuterStack === getOuterStack)
}

/**
 * Whether `entry` was configured without an `id` (see {@link markWithoutId}).
 * @param {{ options: object }} entry
 */
export function entryWithoutId(entry) {
  return withoutId.has(entry.options)
}

/**
 * Whether `entry` or an entry above it has an id the loader made up.
 * @param {LoaderEntry} entry
 * @returns {boolean}
 */
function madeUpAbove(entry) {
  if (withoutId.has(entry.options)) return true
  const parent = entry.parent.tree.ctx?.fiber?.entry
  return parent !== undefined && madeUpAbove(parent)
}

/**
 * The label of a loader entry: its loader id mapped by {@link entryLabel};
 * for an entry configured without an id, the label of the entry that mounts
 * its tree (if any), a `.`, and its plugin's name mapped the same way (a
 * scoped package's name without its `@`). An
 * entry with an id below one without is labelled by its mounter's label and
 * its own id: the loader's composed id would carry the made-up one.
 * @param {LoaderEntry} entry
 * @returns {string}
 */
export function labelOfEntry(entry) {
  const parent = entry.parent.tree.ctx?.fiber?.entry
  if (withoutId.has(entry.options)) {
    // A package's scope without its `@`: `@deepseek-ai/dsh-tools` is `deepseek-ai_dsh-tools`.
    const own = entryLabel(entry.options.name.replace(/^@/, ''))
    return parent ? `${labelOfEntry(parent)}.${own}` : own
  }
  const id = /** @type {{ id?: string }} */ (entry.options).id
  if (parent !== undefined && id !== undefined && madeUpAbove(parent)) return `${labelOfEntry(parent)}.${entryLabel(id)}`
  return entryLabel(entry.id)
}
