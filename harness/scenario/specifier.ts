/**
 * Finding the file a plugin entry names, as an import from the folder of the
 * file that names it would: a relative or absolute path, or a package
 * specifier (`@scope/pkg`, `pkg/sub`) looked up with Node's ESM resolution in
 * that folder's `node_modules` and its parents', so a user project's own
 * installed packages are the ones used.
 */
import { stat } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { resolve as resolveFrom } from 'import-meta-resolve'

/** Where a specifier led, or why it led nowhere (one line). */
export type Resolution = { path: string } | { problem: string }

/** Whether a specifier names a file path (`./x`, `../x`, `/x`) rather than a package. */
export function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..' || isAbsolute(specifier)
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

/** The file URL of a folder, as the parent of an import from a file inside it. */
function parentUrl(dir: string): string {
  return pathToFileURL(join(dir, 'noop.js')).href
}

/** The first line of a resolution failure, without Node's "imported from …" tail. */
function resolutionFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0]!.replace(/ imported from \S+$/, '')
}

/**
 * Resolves `specifier` from the folder `dir`: a path is taken relative to
 * `dir` and must be a file; a package specifier goes through Node's ESM
 * resolution (package `exports`, the `import` and `node` conditions,
 * symlinks followed to the real file). Node built-ins are not plugins.
 */
export async function resolveSpecifier(specifier: string, dir: string): Promise<Resolution> {
  if (isPathSpecifier(specifier)) {
    const path = resolve(dir, specifier)
    return await isFile(path) ? { path } : { problem: `module file not found: ${JSON.stringify(specifier)} resolves to ${path}` }
  }
  let url: string
  try {
    url = resolveFrom(specifier, parentUrl(dir))
  } catch (error) {
    const hint = await isFile(resolve(dir, specifier)) ? `; write ./${specifier} for the file beside the scenario` : ''
    return { problem: `cannot resolve package ${JSON.stringify(specifier)} from ${dir}: ${resolutionFailure(error)}${hint}` }
  }
  if (!url.startsWith('file:')) return { problem: `${JSON.stringify(specifier)} resolves to ${url}, not to a plugin module file` }
  return { path: fileURLToPath(url) }
}
