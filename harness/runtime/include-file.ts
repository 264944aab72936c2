import { rmSync } from 'node:fs'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { stringify } from 'yaml'
import type { EntryOptions } from '@deepseek-ai/cordis-plugin-loader'
import type { Scenario } from '../scenario/scenario.ts'

const written = new Map<string, Promise<string>>()
let directory: Promise<string> | undefined
/** The directory once made. Removed on exit by a listener added with this module, outside any interleaving (whose sandbox removes the process listeners added in it). */
let madeDirectory: string | undefined
process.on('exit', () => {
  if (madeDirectory !== undefined) rmSync(madeDirectory, { recursive: true, force: true })
})

/**
 * The file-backed `cordis.yml` of a scenario run with `loader: include`,
 * written once per scenario and process into a private temporary directory
 * (removed when the process exits); returns its file URL for the include
 * entry's `path`.
 */
export function includeFileOf(scenario: Scenario, entries: EntryOptions[]): Promise<string> {
  const key = `${scenario.file}\0${scenario.name}`
  let file = written.get(key)
  if (!file) {
    file = (async () => {
      directory ??= mkdtemp(join(tmpdir(), 'loadrace-include-')).then((made) => {
        madeDirectory = made
        return made
      })
      const dir = join(await directory, scenario.name)
      await mkdir(dir, { recursive: true })
      const path = join(dir, 'cordis.yml')
      await writeFile(path, stringify(entries))
      return pathToFileURL(path).href
    })()
    written.set(key, file)
  }
  return file
}
