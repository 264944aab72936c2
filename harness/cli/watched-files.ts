/**
 * The files a scenario's result depends on, as `loadrace watch` follows
 * them: the scenario file and the plugin module files its entries name. Read
 * from the YAML alone — nothing is imported — so a file being edited into
 * shape never runs code here.
 */
import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { isRecord } from '../scenario/record.ts'
import { isParsed, parseScenarioYaml } from '../scenario/yaml.ts'

/**
 * What editors and tools write beside a file while saving it, or keep as its
 * backup: GNU `sed -i`'s `sedXXXXXX`, vim's `4913` probe, swap files and `~`
 * backups, emacs's `.#lock` and `#autosave#` files, JetBrains' `___jb_tmp___`
 * and `___jb_old___`, Kate's swap, gedit's `.goutputstream-*`, LibreOffice's
 * `.~lock.*#`, and `*.tmp`, `*.bak`, `*.orig`, `*.swp`-style names. None of
 * them is a scenario or a plugin module, so `watch` neither sweeps for them
 * nor lists them as changed.
 */
const EDITOR_TEMPORARY: readonly RegExp[] = [
  /^sed[A-Za-z0-9]{6}$/,
  /^[0-9]+$/,
  /~$/,
  /^\.#/,
  /^#.*#$/,
  /^\.~lock\..*#$/,
  /\.sw[a-p]$/,
  /___jb_(tmp|old)___$/,
  /\.kate-swp$/,
  /^\.goutputstream-/,
  /\.(tmp|temp|bak|orig)$/,
  /^\.DS_Store$/,
]

/** Whether a file name is an editor's temporary or backup file (see `EDITOR_TEMPORARY`). */
export function isEditorTemporary(name: string): boolean {
  return EDITOR_TEMPORARY.some(pattern => pattern.test(name))
}

/** The absolute paths of the plugin modules a scenario file names; empty when it cannot be read or parsed. */
export async function moduleFilesOf(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => undefined)
  if (text === undefined) return []
  const parsed = parseScenarioYaml(text)
  if (!isParsed(parsed) || !isRecord(parsed.value) || !Array.isArray(parsed.value.plugins)) return []
  const dir = dirname(resolve(file))
  return parsed.value.plugins
    .filter(isRecord)
    .map(entry => entry.module)
    .filter((module): module is string => typeof module === 'string')
    .map(module => resolve(dir, module))
}
