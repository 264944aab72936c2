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
