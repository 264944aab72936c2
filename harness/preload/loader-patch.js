// @ts-check
/**
 * Routes the imports of a loader copy through the process's release order.
 * `module-hooks.js` hands over each copy's namespace; its `EntryTree` — the
 * base of the root `Loader` and of every `Include` — gets an `import` that
 * names the entry asking, finds the configuration it belongs to, and lets
 * the release order say when the module reaches the loader. `cordis:`
 * builtins pass through, as in the in-process scheduled loader.
 */
import { relative, sep } from 'node:path'
import { entryOfImport, labelOfEntry, markWithoutId } from '../scenario/entry-labels.js'
import { LOADER_HANDOFF } from './module-hooks.js'

const PATCHED = Symbol.for('loadrace.test.patched')

/**
 * @typedef {{
 *   id: string,
 *   options: { id?: string, name: string },
 *   getOuterStack: unknown,
 *   parent: { tree: Tree },
 * }} LoaderEntry
 * @typedef {{
 *   store: Record<string, LoaderEntry>,
 *   filename?: unknown,
 *   ctx?: { fiber?: { entry?: LoaderEntry } },
 * }} Tree
 */

/**
 * The configuration `tree` belongs to: the file of the outermost include
 * above it, relative to `project`; the entry script when there is none.
 * @param {Tree} tree
 * @param {string} project
 * @returns {string | null}
 */
export function configurationOf(tree, project) {
  /** @type {string | undefined} */
  let file
  /** @type {Tree | undefined} */
  let current = tree
  while (current !== undefined) {
    if (typeof current.filename === 'string') file = current.filename
    current = current.ctx?.fiber?.entry?.parent.tree
  }
  const chosen = file ?? process.argv[1]
  if (chosen === undefined) return null
  return relative(project, chosen).split(sep).join('/')
}

/**
 * Installs the hand-off `module-hooks.js` appends a call to.
 * @param {import('./release.js').ReleaseOrder} order
 * @param {string} project
 */
export function installLoaderPatch(order, project) {
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[Symbol.for(LOADER_HANDOFF)] = (/** @type {Record<string, unknown>} */ namespace) => {
    const EntryTree = /** @type {{ prototype: Record<PropertyKey, any> } | undefined} */ (namespace.EntryTree)
    if (typeof EntryTree?.prototype?.import !== 'function' || EntryTree.prototype[PATCHED] === true) return
    const originalImport = /** @type {(this: Tree, name: string, getOuterStack?: unknown) => unknown} */ (EntryTree.prototype.import)
    const originalEnsureId = /** @type {(this: Tree, options: { id?: string }) => string} */ (EntryTree.prototype.ensureId)
    EntryTree.prototype.ensureId = /** @this {Tree} */ function (/** @type {{ id?: string }} */ options) {

      if (!options.id) markWithoutId(options)
      return originalEnsureId.call(this, options)
    }
    EntryTree.prototype.import = /** @this {Tree} */ function (/** @type {string} */ name, /** @type {unknown} */ getOuterStack) {
      order.applies.watch(/** @type {{ root?: Parameters<typeof order.applies.watch>[0] } | undefined} */ (this.ctx)?.root)
      const entry = typeof name === 'string' && !name.startsWith('cordis:') ? entryOfImport(this, getOuterStack) : undefined
      if (entry === undefined) return originalImport.call(this, name, getOuterStack)
      return order.request(labelOfEntry(entry), configurationOf(this, project), () => Promise.resolve(originalImport.call(this, name, getOuterStack)))
    }
    EntryTree.prototype[PATCHED] = true
  }
}
