/**
 * Importing the real plugin modules a scenario names. This is the loader's
 * only side effect, so it runs after every other check has passed.
 *
 * A module is imported once per process, as a real module is, and its
 * namespace is what the scheduled loader's import hands the real cordis
 * loader in every interleaving: the loader's own `unwrapExports`
 * (`exports.default ?? exports`) decides which export is the plugin, so a
 * namespace of named `name`/`inject`/`Config`/`apply` exports loads as is.
 * A module that throws while importing is not a bad scenario but the
 * system's load error: the hook rethrows its stable text in every
 * interleaving, the loader logs it and boots the rest.
 */
import { pathToFileURL } from 'node:url'
import { enableTypeScript } from '../typescript-loader.js'
import { cordisCopyProblem } from './cordis-instance.ts'
import { importFailureText } from './import-failure.ts'
import { isRecord } from './record.ts'
import { showValue } from './show.ts'
import { resolveSpecifier } from './specifier.ts'
import type { Problem } from './problem.ts'
import type { System } from '../system/system.ts'

/** What importing a module gave: its namespace, or the load error the loader will log for it. */
export type ModuleOutcome =
  | { kind: 'namespace', namespace: object }
  | { kind: 'failed', error: string }

/** A plugin module, resolved and imported. */
export interface LoadedModule {
  /** The absolute path of the module file. */
  path: string
  outcome: ModuleOutcome
}

/** What a module entry may name, for error lines. */
export const MODULE_SPECIFIERS = 'a relative path, or an installed package specifier, resolved from the folder of the file that names it'

/** Module files tsx must compile before Node can import them. */
const TYPESCRIPT_FILE = /\.[cm]?tsx?$/

/** The shapes the loader accepts, for error lines. */
export const PLUGIN_SHAPES = 'a module whose default export, or whose namespace of named exports, is a cordis plugin: a function, a class, or an object with apply'

/** Whether a value has a shape cordis accepts as a plugin. */
export function isCordisPlugin(value: unknown): boolean {
  if (typeof value === 'function') return true
  return typeof value === 'object' && value !== null && typeof (value as { apply?: unknown }).apply === 'function'
}

function describeExport(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isRecord(value)) return 'an object'
  return showValue(value)
}

/** Why the namespace holds no plugin the loader could apply (its `unwrapExports` decides which export it takes), or undefined when it does. */
function shapeProblem(specifier: string, namespace: object, system: System): string | undefined {
  if (isCordisPlugin(system.loader.Loader.prototype.unwrapExports(namespace))) return undefined
  if ('default' in namespace) return `the default export of ${JSON.stringify(specifier)} is not a cordis plugin, got ${describeExport(namespace.default)}`
  const names = Object.keys(namespace)
  return `${JSON.stringify(specifier)} exports no plugin: no default export, and no apply among its exports (${names.length === 0 ? 'it exports nothing' : `it exports ${names.join(', ')}`})`
}

/**
 * Resolves `specifier` from `dir`, checks it shares loadrace's cordis, and
 * imports it. Returns the module, or one line saying why it cannot be used
 * (the scenario is then bad input). An import that throws is not such a
 * line: it is the module's load error, carried in the outcome.
 */
export async function loadModule(specifier: string, dir: string, system: System): Promise<LoadedModule | { problem: string, allowed: string }> {
  const resolved = await resolveSpecifier(specifier, dir)
  if ('problem' in resolved) return { problem: resolved.problem, allowed: MODULE_SPECIFIERS }
  const copies = cordisCopyProblem(resolved.path, system)
  if (copies !== undefined) {
    return { problem: `${JSON.stringify(specifier)} ${copies}`, allowed: 'plugins that import the @deepseek-ai/cordis the system under test runs on (one copy in the project: dedupe cordis)' }
  }
  let namespace: unknown
  try {
    // Plain Node (the built package imported by a user's script or test) cannot import TypeScript by itself.
    if (TYPESCRIPT_FILE.test(resolved.path)) enableTypeScript()
    namespace = await import(pathToFileURL(resolved.path).href)
  } catch (error) {
    return { path: resolved.path, outcome: { kind: 'failed', error: await importFailureText(specifier, resolved.path, dir, error) } }
  }
  if (typeof namespace !== 'object' || namespace === null) {
    return { problem: `${JSON.stringify(specifier)} did not import as a module namespace`, allowed: PLUGIN_SHAPES }
  }
  const shape = shapeProblem(specifier, namespace, system)
  if (shape !== undefined) return { problem: shape, allowed: PLUGIN_SHAPES }
  return { path: resolved.path, outcome: { kind: 'namespace', namespace } }
}

/** Narrows the result of {@link loadModule}. */
export function isLoaded(result: LoadedModule | { problem: string }): result is LoadedModule {
  return 'outcome' in result
}

/**
 * Imports the `module` of every plugin entry of a scenario file, in file
 * order, stopping at the first that cannot be used. Returns the modules by
 * entry index, or that problem located at the entry's `module` key.
 */
export async function loadPluginModules(plugins: readonly unknown[], dir: string, system: System): Promise<Map<number, LoadedModule> | Problem> {
  const loaded = new Map<number, LoadedModule>()
  for (const [index, entry] of plugins.entries()) {
    if (!isRecord(entry) || typeof entry.module !== 'string') continue
    const result = await loadModule(entry.module, dir, system)
    if (!isLoaded(result)) return { path: ['plugins', index, 'module'], problem: result.problem, allowed: result.allowed, anchor: 'value' }
    loaded.set(index, result)
  }
  return loaded
}
