// @ts-check
/**
 * Routes the imports of a loader copy through the release order of the boot
 * that asks. `module-hooks.js` (where Node loads the loader) and
 * `vitest-plugin.js` (where vitest's module runner does) hand over each
 * copy's namespace; its `EntryTree` — the base of the root `Loader` and of
 * every `Include` — gets an `import` that names the entry asking, finds the
 * boot it belongs to, and lets that boot's release order say when the module
 * reaches the loader. `cordis:` builtins pass through, as in the in-process
 * scheduled loader. A copy is patched once; every copy a thread evaluates is
 * (vitest evaluates the loader again for every test file).
 */
import { entryOfImport, labelOfEntry, markWithoutId } from '../scenario/entry-labels.js'
import { LOADER_HANDOFF } from './module-hooks.js'

const PATCHED = Symbol.for('loadrace.test.patched')

/**
 * Installs the hand-off the instrumented loader module calls, on the
 * global and on `process` (a vm pool's test realm has its own global, but
 * shares `process`).
 * @param {import('./boots.js').Boots} boots
 */
export function installLoaderPatch(boots) {
  const handOff = (/** @type {Record<string, unknown>} */ namespace, /** @type {unknown} */ _file, /** @type {object | undefined} */ realm) => {
    const EntryTree = /** @type {{ prototype: Record<PropertyKey, any> } | undefined} */ (namespace.EntryTree)
    if (typeof EntryTree?.prototype?.import !== 'function' || EntryTree.prototype[PATCHED] === true) return
    const originalImport = /** @type {(this: unknown, name: string, getOuterStack?: unknown) => unknown} */ (EntryTree.prototype.import)
    const originalEnsureId = /** @type {(this: unknown, options: { id?: string }) => string} */ (EntryTree.prototype.ensureId)
    EntryTree.prototype.ensureId = function (/** @type {{ id?: string }} */ options) {
      if (!options.id) markWithoutId(options)
      return originalEnsureId.call(this, options)
    }
    EntryTree.prototype.import = /** @this {any} */ function (/** @type {string} */ name, /** @type {unknown} */ getOuterStack) {
      const entry = typeof name === 'string' && !name.startsWith('cordis:') ? entryOfImport(this, getOuterStack) : undefined
      if (entry === undefined) return originalImport.call(this, name, getOuterStack)
      const boot = boots.of(this, realm)
      boot.order.applies.watch(this.ctx?.root)
      return boot.order.request(labelOfEntry(entry), () => Promise.resolve(originalImport.call(this, name, getOuterStack)))
    }
    EntryTree.prototype[PATCHED] = true
  }
  const key = Symbol.for(LOADER_HANDOFF);
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[key] = handOff;
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (process))[key] = handOff
}
