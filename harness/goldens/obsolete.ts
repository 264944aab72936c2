/**
 * Obsolete goldens: goldens that no scenario uses any more. They are judged
 * only in the goldens folders the swept scenarios use, and a golden there is
 * obsolete only when no scenario that could use that folder has its name:
 * neither a swept scenario nor any scenario file under the folder holding the
 * goldens folder (under the working directory for `--goldens DIR`). So a
 * sweep of one folder never calls the goldens of scenarios that exist
 * elsewhere but were not swept obsolete.
 */
import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { findScenarioFiles } from '../scenario/discover.ts'
import type { GoldenPolicy } from './golden.ts'
import { goldensFolderOf } from './location.ts'

/** A scenario as this check needs it. */
export interface NamedScenario {
  name: string
  file: string
}

/** A top-level `name:` line of a scenario file, plain or quoted. */
const NAME_LINE = /^name:[ \t]*(['"]?)([a-z0-9-]+)\1[ \t]*(?:#.*)?$/m

/**
 * The scenario name a file declares, read without loading it (it may be
 * malformed, or not a scenario at all): its top-level `name:` line, else the
 * file name without its extension, as the loader defaults it.
 */
async function declaredName(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return NAME_LINE.exec(text)?.[2] ?? basename(file, extname(file))
}

async function jsonFiles(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter(file => file.endsWith('.json')).sort()
  } catch {
    return []
  }
}

/**
 * The obsolete goldens of a sweep of `swept` (paths as `goldensFolderOf`
 * gives them), sorted per folder.
 */
export async function obsoleteGoldens(swept: readonly NamedScenario[], policy: Pick<GoldenPolicy, 'goldens'>, cwd = process.cwd()): Promise<string[]> {
  const folders = [...new Set(swept.map(scenario => goldensFolderOf(scenario.file, policy.goldens, cwd)))]
  const obsolete: string[] = []
  for (const folder of folders) {
    const goldens = await jsonFiles(resolve(cwd, folder))
    if (goldens.length === 0) continue
    const scope = policy.goldens === undefined ? dirname(resolve(cwd, folder)) : cwd
    const others = await Promise.all((await findScenarioFiles([scope])).map(declaredName))
    const known = new Set([...swept.map(scenario => scenario.name), ...others].map(name => `${name}.json`))
    obsolete.push(...goldens.filter(file => !known.has(file)).map(file => join(folder, file)))
  }
  return obsolete
}
