// @ts-check
/**
 * The module hooks the preload registers in each thread: they append one
 * line to the entry module of cordis's plugin loader when the thread loads
 * it (`lib/index.js` of the published package, `src/index.ts` when an
 * application runs the loader's sources through tsx, as dsh's examples do by
 * default). The line hands the module's own namespace — its `EntryTree`
 * class among it — to the preload (`loader-patch.js`). Every other module
 * loads untouched.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The package whose entry module is instrumented. */
const LOADER_PACKAGE = '@deepseek-ai/cordis-plugin-loader'
/** Where a loader copy keeps its entry module, relative to its package folder. */
const ENTRY_MODULE = /[\\/](?:lib|src)[\\/]index\.(?:[cm]?js|[cm]?ts)$/
/** Written into the appended line, so that a module is never instrumented twice. */
export const INSTRUMENTATION_MARK = 'loadrace:loader-namespace'
/** The global the appended line calls (see `loader-patch.js`). */
export const LOADER_HANDOFF = 'loadrace.test.loader'

/** @type {Map<string, boolean>} */
const packageOfFolder = new Map()

/**
 * Whether the package folder above `lib/` or `src/` is the loader's.
 * @param {string} file
 */
export function isLoaderEntry(file) {
  if (!ENTRY_MODULE.test(file)) return false
  const folder = dirname(dirname(file))
  let known = packageOfFolder.get(folder)
  if (known === undefined) {
    try {
      known = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).name === LOADER_PACKAGE
    } catch {
      known = false
    }
    packageOfFolder.set(folder, known)
  }
  return known
}

/**
 * The line appended to a loader's entry module: a static import of the
 * module itself (its namespace is complete once its own body has run) and a
 * call of the preload's hand-off, if this thread has one, with the module
 * and the global of the realm it runs in (the hand-off is looked up on
 * `process` too: a vm pool's test realm has a global of its own). The line
 * is the same in every run: what differs between runs reaches the preload
 * through the environment (vitest caches transforms).
 * @param {string} url the module's URL (or file)
 * @param {string} [self] how the module imports itself, when not by `url`
 */
export function instrumentation(url, self = url) {
  const key = `Symbol.for(${JSON.stringify(LOADER_HANDOFF)})`
  return `\n;import * as __loadraceLoaderNamespace from ${JSON.stringify(self)};\n`
    + `;(globalThis[${key}] ?? globalThis.process?.[${key}])?.(__loadraceLoaderNamespace, ${JSON.stringify(url)}, globalThis); // ${INSTRUMENTATION_MARK}\n`
}

/**
 * @typedef {{ format?: string | null, source?: string | ArrayBuffer | ArrayBufferView | null }} LoadResult
 */

/**
 * The asynchronous hook (`module.register`, Node 20).
 * @param {string} url
 * @param {{ format?: string | null }} context
 * @param {(url: string, context?: object) => Promise<LoadResult>} nextLoad
 */
export async function load(url, context, nextLoad) {
  return instrumented(url, await nextLoad(url, context))
}

/**
 * The synchronous hooks (`module.registerHooks`, Node 22.15 and later), in the process's own thread. While any
 * synchronous hook is registered, Node resolves every module through it, and in a process whose other hooks run on
 * the hooks thread (tsx's, in dsh's `src` mode) it resolves each module by a blocking round trip to that thread:
 * even a do-nothing resolve hook cost dsh's application 0.24 s of a 2.9 s boot (`docs/performance.md`). So the hooks
 * stay only until this thread's loader is instrumented: the resolve hook watches for a loader's entry module, the
 * load hook is registered only once one is resolved, and both are deregistered when it has loaded. A thread
 * controls the first copy of the loader it loads; a second copy loaded later in the same thread runs unperturbed.
 * @param {(hooks: object) => { deregister(): void }} registerHooks
 */
export function registerSyncHooks(registerHooks) {
  /** Loader entries resolved and not yet loaded. */
  const awaiting = new Set()
  /** @type {{ deregister(): void } | undefined} */
  let loadHook
  /** @type {{ deregister(): void } | undefined} */
  let resolveHook
  /**
   * @param {string} url
   * @param {object} context
   * @param {(url: string, context?: object) => LoadResult} nextLoad
   */
  const load = (url, context, nextLoad) => {
    const result = instrumented(url, nextLoad(url, context))
    if (awaiting.delete(url) && resolveHook !== undefined) {
      resolveHook.deregister()
      loadHook?.deregister()
      resolveHook = loadHook = undefined
    }
    return result
  }
  resolveHook = registerHooks({
    /**
     * @param {string} specifier
     * @param {object} context
     * @param {(specifier: string, context?: object) => { url: string }} nextResolve
     */
    resolve(specifier, context, nextResolve) {
      const result = nextResolve(specifier, context)
      const url = result.url
      if (url.startsWith('file:') && url.includes('/index.') && !awaiting.has(url) && isLoaderEntry(fileURLToPath(url))) {
        awaiting.add(url)
        loadHook ??= registerHooks({ load })
      }
      return result
    },
  })
}

/**
 * `result` with the instrumentation appended when `url` is a loader's entry module.
 * @param {string} url
 * @param {LoadResult} result
 * @returns {LoadResult}
 */
function instrumented(url, result) {
  if (!url.startsWith('file:') || result.source === undefined || result.source === null) return result
  if (result.format !== 'module' && result.format !== 'module-typescript') return result
  if (!isLoaderEntry(fileURLToPath(url))) return result
  const source = typeof result.source === 'string'
    ? result.source
    : Buffer.from(/** @type {ArrayBuffer} */ (ArrayBuffer.isView(result.source) ? result.source.buffer.slice(result.source.byteOffset, result.source.byteOffset + result.source.byteLength) : result.source)).toString('utf8')
  if (source.includes(INSTRUMENTATION_MARK)) return result
  return { ...result, source: source + instrumentation(url) }
}
