/**
 * Node's module resolution from a folder of the project under test, and the
 * package a resolved file belongs to. Resolution follows symlinks to the real
 * file (pnpm workspaces link their packages), and stays inside the project: a
 * lookup that climbs out of the project's root into an enclosing folder's
 * `node_modules` (a checkout nested in another project) does not count.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { resolve as resolveFrom } from 'import-meta-resolve'

/** The real path of `path`, or `path` itself when it does not exist. */
export function realFile(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** The file a package specifier resolves to from a file `fromFile` (Node's ESM resolution, symlinks followed), or undefined when it does not resolve. */
export function resolvePackageFrom(specifier: string, fromFile: string): string | undefined {
  try {
    const url = resolveFrom(specifier, pathToFileURL(fromFile).href)
    return url.startsWith('file:') ? realFile(fileURLToPath(url)) : undefined
  } catch {
    return undefined
  }
}

/** A folder as the parent of an import from a file inside it. */
export function fileIn(dir: string): string {
  return join(dir, 'noop.js')
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return typeof value === 'object' && value !== null ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/**
 * The root of the project holding `dir`: the nearest folder above it that
 * declares a workspace (`pnpm-workspace.yaml`, or a package.json with
 * `workspaces`), else the nearest folder holding a package.json, else `dir`.
 */
export function projectRootOf(dir: string): string {
  let nearestPackage: string | undefined
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, 'pnpm-workspace.yaml'))) return current
    const manifest = readJson(join(current, 'package.json'))
    if (manifest !== undefined) {
      if (manifest.workspaces !== undefined) return current
      nearestPackage ??= current
    }
    if (dirname(current) === current) return nearestPackage ?? dir
  }
}

/** Whether `file` lies inside `root` (both real paths). */
export function isInside(root: string, file: string): boolean {
  const path = relative(root, file)
  return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !path.startsWith(sep))
}

/** A package as found on disk: its name, version and real folder. */
export interface PackageFound {
  name: string
  version: string
  /** The real path of the package's folder (the one holding its package.json). */
  dir: string
  /** The real path of the file its specifier resolved to. */
  entry: string
}

/** The package `name` that the resolved file `entry` belongs to: the nearest package.json above it naming that package. */
export function packageOf(name: string, entry: string): PackageFound | undefined {
  for (let current = dirname(entry); ; current = dirname(current)) {
    const manifest = readJson(join(current, 'package.json'))
    if (manifest?.name === name) return { name, version: String(manifest.version ?? '?'), dir: current, entry }
    if (dirname(current) === current) return undefined
  }
}
