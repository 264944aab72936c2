import { existsSync } from 'node:fs'

/**
 * Where loadrace's own files are: the folder holding its package.json, found
 * upwards from this module (the checkout, or the installed package, whose
 * modules are built into `dist/`).
 */
function packageRoot(): URL {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    if (existsSync(new URL('package.json', dir))) return dir
    if (dir.pathname === '/') throw new Error(`no package.json above ${import.meta.url}`)
  }
}

/** The folder holding loadrace's package.json. */
export const PACKAGE_ROOT: URL = packageRoot()

/** The `loadrace` command's entry file. */
export const BIN: URL = new URL('bin/loadrace.js', PACKAGE_ROOT)
