/** Finding scenario files: `.yml`/`.yaml` files, directories searched recursively. */
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'

const SCENARIO_EXTENSION = /\.ya?ml$/

/** Whether a file name has a scenario extension (`.yml` or `.yaml`). */
export function isScenarioFileName(name: string): boolean {
  return SCENARIO_EXTENSION.test(name)
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path)
  } catch {
    return undefined
  }
}

/** Scenario files under a directory, skipping hidden folders and node_modules; plugin modules beside them are ignored. */
async function walk(dir: string, found: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true })
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) await walk(path, found)
    else if (isScenarioFileName(entry.name) && (entry.isFile() || (await statOrUndefined(path))?.isFile())) found.push(path)
  }
}

/**
 * Expands files and directories into scenario files, sorted by path (code
 * units) without duplicates. A directory contributes its `.yml`/`.yaml` files
 * recursively, under the path as given; a path that is not a directory is kept
 * as given, so loading reports it if it is missing or not a scenario.
 */
export async function findScenarioFiles(paths: readonly string[]): Promise<string[]> {
  const byLocation = new Map<string, string>()
  for (const given of paths) {
    const found: string[] = []
    if ((await statOrUndefined(given))?.isDirectory()) await walk(given, found)
    else found.push(given)
    for (const file of found) {
      const location = resolve(file)
      if (!byLocation.has(location)) byLocation.set(location, file)
    }
  }
  return [...byLocation.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}
