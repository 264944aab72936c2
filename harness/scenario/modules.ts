/**
 * Importing the real plugin modules a scenario names. This is the loader's
 * only side effect, so it runs after every other check has passed.
 */
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin } from '@deepseek-ai/cordis'
import { enableTypeScript } from '../typescript-loader.js'
import { isRecord } from './record.ts'
import { showValue } from './show.ts'
import type { Problem } from './problem.ts'

/** A plugin module that imported and default-exports a cordis plugin. */
export interface LoadedModule {
  /** Absolute path of the module file. */
  path: string
  plugin: Plugin
}

const PLUGIN_SHAPES = 'a default export that is a cordis plugin: a function, a class, or an object with apply'
const MAX_MESSAGE = 200
/** Module files tsx must compile before Node can import them. */
const TYPESCRIPT_FILE = /\.[cm]?tsx?$/

/** Whether a value has a shape cordis accepts as a plugin. */
export function isCordisPlugin(value: unknown): value is Plugin {
  if (typeof value === 'function') return true
  return typeof value === 'object' && value !== null && typeof (value as { apply?: unknown }).apply === 'function'
}

/** The first line of what an import threw, short enough for an error line. */
function describeThrown(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : showValue(error)
  const first = text.split(/\r\n|\r|\n/).find((line) => line.trim() !== '') ?? text
  return first.length <= MAX_MESSAGE ? first : `${first.slice(0, MAX_MESSAGE - 1)}…`
}

function describeExport(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isRecord(value)) return 'an object'
  return showValue(value)
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

/** Imports one module path (relative to `dir`): the loaded plugin, or why it cannot be used. */
async function loadModule(module: string, dir: string, index: number): Promise<LoadedModule | Problem> {
  const path = resolve(dir, module)
  const where = ['plugins', index, 'module']
  const problem = (text: string, allowed: string): Problem => ({ path: where, problem: text, allowed, anchor: 'value' })
  if (!await isFile(path)) {
    return problem(`module file not found: ${JSON.stringify(module)} resolves to ${path}`, 'a plugin module path, relative to the scenario file')
  }
  let namespace: unknown
  try {
    // Plain Node (the built package imported by a user's script or test) cannot import TypeScript by itself.
    if (TYPESCRIPT_FILE.test(path)) enableTypeScript()
    namespace = await import(pathToFileURL(path).href)
  } catch (error) {
    return problem(`importing ${JSON.stringify(module)} failed: ${describeThrown(error)}`, 'a module that imports without throwing')
  }
  if (typeof namespace !== 'object' || namespace === null || !('default' in namespace)) {
    return problem(`${JSON.stringify(module)} has no default export`, PLUGIN_SHAPES)
  }
  const plugin: unknown = namespace.default
  if (!isCordisPlugin(plugin)) {
    return problem(`the default export of ${JSON.stringify(module)} is not a cordis plugin, got ${describeExport(plugin)}`, PLUGIN_SHAPES)
  }
  return { path, plugin }
}

/**
 * Imports the `module` of every plugin entry, in file order, stopping at the
 * first that fails. Returns the loaded modules by entry index, or that problem.
 */
export async function loadPluginModules(plugins: readonly unknown[], dir: string): Promise<Map<number, LoadedModule> | Problem> {
  const loaded = new Map<number, LoadedModule>()
  for (const [index, entry] of plugins.entries()) {
    if (!isRecord(entry) || typeof entry.module !== 'string') continue
    const result = await loadModule(entry.module, dir, index)
    if (!('plugin' in result)) return result
    loaded.set(index, result)
  }
  return loaded
}
