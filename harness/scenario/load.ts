/**
 * Loading scenario files: read, parse safely, check structure and semantics,
 * report the first problem in document order, import plugin modules, read
 * an `expect.header` file, and normalise. Each malformed file yields exactly one `ScenarioError`.
 */
import { existsSync, statSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, extname, resolve } from 'node:path'
import { ScenarioError, ScenarioErrors } from './errors.ts'
import { findScenarioFiles, isScenarioFileName } from './discover.ts'
import { isProblem, loadExpectedHeader } from './expected-header.ts'
import { isEntryListText, readConfigurationFile, type ConfigurationFile } from './entries-file.ts'
import { loadPluginModules } from './modules.ts'
import { normaliseScenario } from './normalise.ts'
import { firstInDocument } from './position.ts'
import { ScenarioFileSchema } from './schema.ts'
import { checkSemantics } from './semantics.ts'
import { formatPath } from './show.ts'
import { checkStructure } from './structure.ts'
import { isParsed, parseScenarioYaml } from './yaml.ts'
import type { Problem } from './problem.ts'
import { isRecord } from './record.ts'
import type { Scenario } from './scenario.ts'
import { projectSystem, SystemError, type System } from '../system/system.ts'
import { bareConfigurationTarget, DEFAULT_TARGET, findTarget } from '../targets/registry.ts'

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
 * The scenario of a bare cordis.yml swept with defaults: the target the
 * registry sweeps bare configurations against, `app: none`, and every
 * interleaving expected to complete with identical bytes and every entry
 * active. Named after its folder and file (`app/cordis.yml` → `app-cordis`).
 */
function entryListDefaults(file: string): Record<string, unknown> {
  const path = resolve(file)
  const slug = `${basename(dirname(path))}-${basename(path, extname(path))}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return { name: slug || 'cordis', app: 'none', target: bareConfigurationTarget().name, entries: `./${basename(path)}`, expect: { outcome: 'completed' } }
}

/**
 * The system the scenario runs on: the project's own cordis, loader and
 * include, found from the folder of the cordis.yml it names (`entries:`) or
 * of the scenario file; loadrace's own where the project has none.
 */
async function systemOf(file: string, dir: string, value: Record<string, unknown>): Promise<System> {
  const from = typeof value.entries === 'string' ? dirname(resolve(dir, value.entries)) : dir
  try {
    return await projectSystem(from)
  } catch (error) {
    if (!(error instanceof SystemError)) throw error
    const field = typeof value.entries === 'string' ? ['entries'] : []
    throw toError(file, { path: field, problem: error.message, allowed: 'a project with one @deepseek-ai/cordis, and its cordis-plugin-loader and cordis-plugin-include beside it (or none: loadrace\'s own)', anchor: 'value' })
  }
}

/** Reads the cordis.yml a scenario names; an `expect.inactive` id must name one of its entries. */
async function configurationFileOf(file: string, dir: string, value: Record<string, unknown>, system: System): Promise<ConfigurationFile> {
  const tree = await readConfigurationFile(resolve(dir, String(value.entries)), system)
  if (!('entries' in tree)) throw new ScenarioError(tree)
  const expect = value.expect as { inactive?: unknown }
  const labels = tree.entries.map(entry => entry.label)
  const model = value.model as { replaces?: unknown } | undefined
  if (typeof model?.replaces === 'string') {
    const replaced = tree.entries.find(entry => entry.label === model.replaces)
    const importing = tree.entries.filter(entry => entry.module !== undefined && !entry.disabled).map(entry => entry.label)
    if (replaced?.module === undefined || replaced.disabled) {
      throw toError(file, { path: ['model', 'replaces'], problem: replaced === undefined ? `unknown entry ${JSON.stringify(model.replaces)}` : `entry ${JSON.stringify(model.replaces)} ${replaced.disabled ? 'is disabled' : 'imports no module'}`, allowed: `enabled entries of ${String(value.entries)} that import a module: ${importing.join(', ')}`, anchor: 'value' })
    }
  }
  const unknown = Array.isArray(expect.inactive) ? expect.inactive.findIndex(id => !labels.includes(String(id))) : -1
  if (unknown >= 0) {
    const id = JSON.stringify((expect.inactive as unknown[])[unknown])
    throw toError(file, { path: ['expect', 'inactive', unknown], problem: `unknown entry ${id}`, allowed: `entries of ${String(value.entries)}: ${labels.join(', ')}`, anchor: 'value' })
  }
  return tree
}

/** A `snapshot:` must be a snapshot folder of the scenario's target an application can be judged against: with its own pinned files, or the `pinned:` ones of its header class. */
function checkSnapshotFolder(file: string, dir: string, value: Record<string, unknown>): void {
  const target = typeof value.target === 'string' ? value.target : DEFAULT_TARGET
  const folder = resolve(dir, String(value.snapshot))
  const snapshots = findTarget(target)?.snapshots
  if (snapshots === undefined) throw toError(file, { path: ['snapshot'], problem: `the ${target} target reads no snapshot folder`, allowed: 'remove snapshot:, or choose a target with a snapshot suite', anchor: 'key' })
  const problem = snapshots.problem(folder)
  if (problem !== undefined) throw toError(file, { path: ['snapshot'], problem, allowed: snapshots.allowed, anchor: 'value' })
  const pinned = isRecord(value.pinned) ? value.pinned : undefined
  if (pinned === undefined) {
    const unpinned = snapshots.pinsProblem(folder)
    if (unpinned !== undefined) throw toError(file, { path: ['snapshot'], problem: unpinned, allowed: snapshots.allowedUnpinned, anchor: 'value' })
    return
  }
  for (const key of ['systemPrompt', 'toolSchemas'] as const) {
    const path = resolve(dir, String(pinned[key]))
    if (!existsSync(path) || !statSync(path).isFile()) throw toError(file, { path: ['pinned', key], problem: `no such file: ${path}`, allowed: `the ${snapshots.files[key]} of the snapshot's header class's pin, relative to the scenario file`, anchor: 'value' })
  }
}

/**
 * Loads one scenario file (`file` as the user gave it; relative paths resolve
 * against the working directory). A file holding a YAML list is a cordis.yml
 * swept with defaults. Rejects with one `ScenarioError` when the file is
 * malformed; plugin modules are imported, and an `expect.header` file read,
 * only once every other check passed.
 */
export async function loadScenario(file: string): Promise<Scenario> {
  const text = await readScenarioText(file)
  const dir = dirname(resolve(file))
  const defaultName = basename(file, extname(file))
  if (isEntryListText(text)) {
    const value = entryListDefaults(file)
    const system = await systemOf(file, dir, value)
    const tree = await configurationFileOf(file, dir, value, system)
    return normaliseScenario(value, { file, dir, defaultName, modules: new Map(), tree, system })
  }
  const parsed = parseScenarioYaml(text)
  if (!isParsed(parsed)) throw toError(file, parsed)
  const problems = [...checkStructure(parsed.value, ScenarioFileSchema), ...checkSemantics(parsed.value, defaultName)]
  const first = firstInDocument(parsed.doc, problems)
  if (first) throw toError(file, first)
  const system = await systemOf(file, dir, parsed.value)
  const tree = typeof parsed.value.entries === 'string' ? await configurationFileOf(file, dir, parsed.value, system) : undefined
  const plugins = parsed.value.plugins
  const modules = await loadPluginModules(Array.isArray(plugins) ? plugins : [], dir, system)
  if (!(modules instanceof Map)) throw toError(file, modules)
  const header = await loadExpectedHeader(parsed.value, dir)
  if (isProblem(header)) throw toError(file, header)
  if (typeof parsed.value.snapshot === 'string') checkSnapshotFolder(file, dir, parsed.value)
  return normaliseScenario(parsed.value, { file, dir, defaultName, modules, header, system, ...tree ? { tree } : {} })
}

/** Whether a path names a folder (searched for scenario files) rather than a file. */
async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** A file found in a searched folder that holds a cordis.yml: a scenario names it with entries:, or a user sweeps it by name. */
async function isFoundEntryList(file: string, named: ReadonlySet<string>): Promise<boolean> {
  if (named.has(resolve(file))) return false
  try {
    return isEntryListText(await readFile(file, 'utf8'))
  } catch {
    return false
  }
}

/**
 * Loads every scenario file among `paths` (files, and directories searched
 * recursively), sorted by path. A cordis.yml found in a searched folder is
 * left to the scenario that names it; one named directly is swept. Rejects with `ScenarioErrors` holding one
 * error per malformed file, including a file whose scenario name another
 * loaded file already uses.
 */
export async function loadScenarios(paths: readonly string[]): Promise<Scenario[]> {
  const scenarios: Scenario[] = []
  const errors: ScenarioError[] = []
  const owners = new Map<string, string>()
  const named = new Set<string>()
  for (const path of paths) if (!await isFolder(path)) named.add(resolve(path))
  for (const file of await findScenarioFiles(paths)) {
    if (await isFoundEntryList(file, named)) continue
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
