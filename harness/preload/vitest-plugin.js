// @ts-check
/**
 * Reaching the loaders vitest's own workers evaluate. vitest's module runner
 * transforms a module it does not leave to Node (the loader's `src/index.ts`
 * reached through tsconfig paths or an alias, or a dependency it inlines)
 * itself, past Node's module hooks. So for a vitest command `loadrace test`
 * runs it with a config of its own (`suite/vitest-config.ts` writes it) that
 * imports the user's config unchanged and adds one plugin, whose `transform`
 * appends the same hand-off line the module hooks append
 * (`module-hooks.js`), to the root and to every project: a plugin at the
 * root does not reach an inline project that does not say `extends: true`,
 * and a project given as a file or a folder is loaded past the root config,
 * so it becomes an inline project that extends that file. The preload,
 * which `NODE_OPTIONS` puts in every worker, receives the hand-off.
 *
 * This file runs in vitest's main process, where the config is loaded.
 * What it reached is written beside the run's records (`VITEST_REACH_FILE`).
 */
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { INSTRUMENTATION_MARK, instrumentation, isLoaderEntry } from './module-hooks.js'
import { RECORDS_VARIABLE, VITEST_REACH_FILE } from './protocol.js'

/** The plugin's name (vitest keys cached transforms by the plugins' names). */
export const PLUGIN_NAME = 'loadrace:loader-instrumentation'

/** The config files vitest and vite look for in a folder, in vitest's order. */
const CONFIG_FILES = ['vitest.config', 'vite.config'].flatMap(name => ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map(ext => `${name}.${ext}`))

/** The vite plugin that instruments the loader's entry module wherever vitest's module runner loads it. */
export function loaderInstrumentation() {
  return {
    name: PLUGIN_NAME,
    /**
     * @param {string} code
     * @param {string} id
     */
    transform(code, id) {
      const file = id.split('?', 1)[0] ?? id
      if (!file.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(file)) return undefined
      if (!isLoaderEntry(file) || code.includes(INSTRUMENTATION_MARK)) return undefined
      return { code: code + instrumentation(file, `./${basename(file)}`), map: null }
    },
  }
}

/**
 * @typedef {Record<string, any>} Config
 * @typedef {{ project: string, reached: boolean, why?: string }} ProjectReach
 */

/** @param {Config} config */
function withPlugin(config) {
  return { ...config, plugins: [...config.plugins ?? [], loaderInstrumentation()] }
}

/**
 * A project as vitest's config lists it, with the plugin added; `reach` is told what became of it.
 * @param {unknown} project
 * @param {number} index
 * @param {string} root
 * @param {(reach: ProjectReach) => void} reach
 * @returns {unknown}
 */
function projectWithPlugin(project, index, root, reach) {
  if (typeof project === 'string') {
    if (/[*?{}[\]!]/.test(project)) {
      reach({ project, reached: false, why: 'a glob of projects: vitest loads each from its own file, past the wrapping config' })
      return project
    }
    const path = resolve(root, project)
    const isFolder = existsSync(path) && statSync(path).isDirectory()
    const file = isFolder ? CONFIG_FILES.map(name => join(path, name)).find(candidate => existsSync(candidate)) : path
    reach({ project, reached: true })
    return withPlugin(file === undefined ? { root: path } : { extends: file, root: dirname(file) })
  }
  /** @param {Config} config */
  const told = (config) => {
    reach({ project: typeof config?.test?.name === 'string' ? config.test.name : `#${index + 1}`, reached: true })
    return withPlugin(config)
  }
  if (typeof project === 'function') return async (/** @type {unknown} */ env) => told(await project(env))
  if (project !== null && typeof project === 'object' && typeof (/** @type {{ then?: unknown }} */ (project)).then === 'function') return /** @type {Promise<Config>} */ (project).then(told)
  return told(/** @type {Config} */ (project))
}

/**
 * The user's config (its default export: an object, a promise or a
 * function of vite's environment) with the loader instrumentation added at
 * the root and to every project. `root` is the folder vitest resolves
 * project paths against when the config sets none.
 * @param {unknown} exported
 * @param {unknown} env
 * @param {{ root: string }} options
 * @returns {Promise<Config>}
 */
export async function wrapVitestConfig(exported, env, options) {
  let config = /** @type {unknown} */ (await exported)
  if (typeof config === 'function') config = await config(env)
  const user = /** @type {Config} */ (config ?? {})
  const root = resolve(options.root, typeof user.root === 'string' ? user.root : '.')
  /** @type {ProjectReach[]} */
  const projects = []
  const records = process.env[RECORDS_VARIABLE]
  // Written again as each project is known (vitest resolves a project given as a function or a promise later).
  const write = () => {
    if (records === undefined) return
    try { writeFileSync(join(records, VITEST_REACH_FILE), JSON.stringify({ projects })) } catch { /* the run's folder is gone */ }
  }
  const wrapped = /** @type {Config} */ (withPlugin(user))
  const listed = user.test?.projects
  if (Array.isArray(listed)) wrapped.test = { ...user.test, projects: listed.map((project, index) => projectWithPlugin(project, index, root, (reach) => { projects.push(reach); write() })) }
  write()
  return wrapped
}
