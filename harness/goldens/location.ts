/**
 * Where a scenario's golden lives, decided by where the scenario file is —
 * never by the working directory alone:
 *
 * - with `--goldens DIR`, every golden is `DIR/<name>.json`;
 * - otherwise it is `<name>.json` in the nearest existing `goldens/` folder
 *   beside the scenario file's folder or beside one of that folder's
 *   ancestors, up to the project root;
 * - when there is none yet, in a new `goldens/` beside the scenario file's
 *   folder (in the project root itself when the file sits there).
 *
 * The project root is the nearest folder at or above the scenario file's
 * folder that holds a `package.json`; without one, the working directory when
 * it contains the file, else the parent of the file's folder. So
 * `scenarios/a.yml` and `scenarios/faults/b.yml` share `goldens/`, a
 * scenario folder anywhere in a project gets its goldens beside it, and a
 * golden once written is always found again where it is.
 */
import { existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { isWithin, shownPath } from '../scenario/shown-path.ts'

/** The name of a goldens folder. */
export const GOLDENS_FOLDER = 'goldens'

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}


/** The project root of a scenario folder (absolute), as the module comment defines it. */
export function projectRootOf(folder: string, cwd = process.cwd()): string {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) break
  }
  return isWithin(folder, cwd) ? cwd : dirname(folder)
}


/**
 * The goldens folder of the scenario in `file` (a path as the user gave it);
 * `explicit` is `--goldens DIR` when given. Relative to the working directory
 * when inside it, else absolute.
 */
export function goldensFolderOf(file: string, explicit?: string, cwd = process.cwd()): string {
  if (explicit !== undefined) return explicit
  const folder = dirname(resolve(cwd, file))
  const root = projectRootOf(folder, cwd)
  const beside = folder === root ? root : dirname(folder)
  for (let dir = beside; isWithin(dir, root); dir = dirname(dir)) {
    if (isDirectory(join(dir, GOLDENS_FOLDER))) return shownPath(join(dir, GOLDENS_FOLDER), cwd)
    if (dir === root) break
  }
  return shownPath(join(beside, GOLDENS_FOLDER), cwd)
}
