/**
 * Loading scenario files: read, parse safely, check structure and semantics,
 * report the first problem in document order, import plugin modules, read
 * an `expect.header` file, and normalise. Each malformed file yields exactly one `ScenarioError`.
 */
import { readFile } from 'node:fs/promises'
import { basename, dirname, extname, resolve } from 'node:path'
import { ScenarioError, ScenarioErrors } from './errors.ts'
import { findScenarioFiles, isScenarioFileName } from './discover.ts'
import { isProblem, loadExpectedHeader } from './expected-header.ts'
import { loadPluginModules } from './modules.ts'
import { normaliseScenario } from './normalise.ts'
import { firstInDocument } from './position.ts'
import { ScenarioFileSchema } from './schema.ts'
import { checkSemantics } from './semantics.ts'
import { formatPath } from './show.ts'
import { checkStructure } from './structure.ts'
import { isParsed, parseScenarioYaml } from './yaml.ts'
import type { Problem } from './problem.ts'
import type { Scenario } from './types.ts'

export { findScenarioFiles }

const SCENARIO_FILE = 'a readable .yml or .yaml scenario file'

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
}

function toError(file: string, problem: Problem): ScenarioError {
  return new ScenarioError({ file, path: formatPath(problem.path), problem: problem.problem, allowed: problem.allowed })
}

function fileError(file: string, problem: string, allowed = SCENARIO_FILE): ScenarioError {
  return new ScenarioError({ file, path: formatPath([]), problem, allowed })
}

async function readScenarioText(file: string): Promise<string> {
  if (!isScenarioFileName(file)) throw fileError(file, `not a scenario file: ${JSON.stringify(basename(file))}`)
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    throw fileError(file, `cannot read the file: ${READ_FAILURES[code] ?? (code || String(error))}`)
  }
}

/**
 * Loads one scenario file (`file` as the user gave it; relative paths resolve
 * against the working directory). Rejects with one `ScenarioError` when the
 * file is malformed; plugin modules are imported, and an `expect.header` file
 * read, only once every other check passed.
 */
export async function loadScenario(file: string): Promise<Scenario> {
  const parsed = parseScenarioYaml(await readScenarioText(file))
  if (!isParsed(parsed)) throw toError(file, parsed)
  const defaultName = basename(file, extname(file))
  const problems = [...checkStructure(parsed.value, ScenarioFileSchema), ...checkSemantics(parsed.value, defaultName)]
  const first = firstInDocument(parsed.doc, problems)
  if (first) throw toError(file, first)
  const dir = dirname(resolve(file))
  const plugins = parsed.value.plugins
  const modules = await loadPluginModules(Array.isArray(plugins) ? plugins : [], dir)
  if (!(modules instanceof Map)) throw toError(file, modules)
  const header = await loadExpectedHeader(parsed.value, dir)
  if (isProblem(header)) throw toError(file, header)
  return normaliseScenario(parsed.value, { file, dir, defaultName, modules, header })
}

/**
 * Loads every scenario file among `paths` (files, and directories searched
 * recursively), sorted by path. Rejects with `ScenarioErrors` holding one
 * error per malformed file, including a file whose scenario name another
 * loaded file already uses.
 */
export async function loadScenarios(paths: readonly string[]): Promise<Scenario[]> {
  const scenarios: Scenario[] = []
  const errors: ScenarioError[] = []
  const owners = new Map<string, string>()
  for (const file of await findScenarioFiles(paths)) {
    let scenario: Scenario
    try {
      scenario = await loadScenario(file)
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error
      errors.push(error)
      continue
    }
    const owner = owners.get(scenario.name)
    if (owner !== undefined) {
      errors.push(new ScenarioError({
        file,
        path: 'name',
        problem: `duplicate scenario name ${JSON.stringify(scenario.name)}, also used by ${owner}`,
        allowed: 'scenario names are unique across the loaded files',
      }))
      continue
    }
    owners.set(scenario.name, file)
    scenarios.push(scenario)
  }
  if (errors.length > 0) throw new ScenarioErrors(errors)
  return scenarios
}
