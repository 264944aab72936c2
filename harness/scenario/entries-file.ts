/**
 * Reading a real `cordis.yml` the way the loader will: the include plugin's
 * own YAML dialect (`entryListSchema`, `!!js` included), groups, and nested
 * includes with their patches applied by the include plugin's own
 * `applyEntryPatches`. Nothing here mounts anything: in every interleaving
 * the file itself is mounted through the real `cordis:include` (as dsh's app
 * boot mounts it). This walk only finds, before the first interleaving, every
 * entry's id and label and every module the loader will ask for, so the
 * modules are imported once and the interleaving space is known.
 */
import { readFile } from 'node:fs/promises'
import { dirname, isAbsolute, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { load as loadYaml } from 'js-yaml'
import type { System } from '../system/system.ts'
import type { EntryOptions } from '@deepseek-ai/cordis-plugin-loader'
import { entryLabel, LOADER_ID_SEPARATOR } from './entry-labels.js'
import type { ScenarioErrorFields } from './errors.ts'
import { isLoaded, loadModule, type LoadedModule } from './modules.ts'
import { isRecord } from './record.ts'
import { formatPath, showValue } from './show.ts'
import type { FieldPath } from './problem.ts'

/** The include plugin named as a package (dsh's configs do): it mounts a nested tree like `cordis:include`. */
export const INCLUDE_PACKAGE = '@deepseek-ai/cordis-plugin-include'

/** How deep groups and includes may nest (a deeper chain is almost surely a file including itself). */
const MAX_NESTING = 16

/** One entry of the tree, as the loader will hold it. */
export interface TreeEntry {
  /** loadrace's name of the entry (see `entry-labels.js`). */
  label: string
  /** The loader's id below the bootstrap include (nested ids joined by `:`). */
  id: string
  /** The module specifier (or `cordis:` builtin) the entry names. */
  name: string
  /** Whether the entry sits in the file's own list (not in a group or a nested include). */
  topLevel: boolean
  /** `disabled: true` as written (a `!!js` expression is decided when the loader runs). */
  disabled: boolean
  /** The imported module, for an enabled entry that names one (not a `cordis:` builtin). */
  module?: LoadedModule
  /** Set when the entry mounts a nested include tree. */
  include?: true
}

/** Every entry of a cordis.yml, depth-first in file order. */
export interface ConfigurationFile {
  /** Absolute path of the file. */
  file: string
  entries: TreeEntry[]
}

/** A path as a user reads it: relative to the working directory when below it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path
}

class TreeProblem extends Error {
  constructor(readonly fields: ScenarioErrorFields) {
    super(fields.problem)
  }
}

function fail(file: string, path: FieldPath, problem: string, allowed: string): never {
  throw new TreeProblem({ file: displayPath(file), path: formatPath(path), problem, allowed })
}

function isJsExpression(value: unknown): boolean {
  return isRecord(value) && '__jsExpr' in value
}

/** Reads and parses one entry list exactly as the include plugin does. */
async function readEntryList(file: string, from: { file: string, path: FieldPath } | undefined, system: System): Promise<unknown[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    if (from) fail(from.file, from.path, `cannot read the included file ${file} (${code})`, 'the path of a cordis.yml, relative to the file that includes it')
    fail(file, [], `cannot read the file (${code})`, 'a readable cordis.yml')
  }
  let data: unknown
  try {
    data = loadYaml(text, { schema: system.include.entryListSchema })
  } catch (error) {
    const mark = (error as { mark?: { line: number, column: number } }).mark
    const reason = (error as { reason?: string }).reason ?? String(error)
    const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : ''
    fail(file, [], `invalid YAML${where}: ${reason}`, 'a YAML list of loader entries')
  }
  if (!Array.isArray(data)) fail(file, [], `expected a list of loader entries, got ${showValue(data)}`, 'a cordis.yml: a top-level list of {id, name, config, …} entries')
  return data
}

interface Walk {
  entries: TreeEntry[]
  labels: Map<string, string>
  /** The system whose include reads the files and whose cordis every module must share. */
  system: System
}

interface Level {
  file: string
  /** The loader id prefix of this tree's entries (`''` at the top, `base:` inside the include entry `base`). */
  prefix: string
  topLevel: boolean
  depth: number
}

/** The file an include entry's `config.path` names, resolved as the include plugin resolves it. */
function includedFile(options: Record<string, unknown>, level: Level, path: FieldPath): string {
  const config = options.config
  const target = isRecord(config) ? config.path : undefined
  if (isJsExpression(target)) fail(level.file, [...path, 'config', 'path'], 'an include path written as a !!js expression', 'a string path: loadrace reads every included file before the first interleaving')
  if (typeof target !== 'string' || target === '') fail(level.file, [...path, 'config'], `an include entry needs config.path, got ${showValue(target)}`, 'config.path: the path of a cordis.yml, relative to this file')
  return fileURLToPath(new URL(target, pathToFileURL(level.file)))
}

async function walkEntry(options: unknown, index: number, level: Level, walk: Walk, path: FieldPath): Promise<void> {
  const at = [...path, index]
  if (!isRecord(options)) fail(level.file, at, `expected a loader entry, got ${showValue(options)}`, 'a mapping with id and name')
  const { id, name } = options
  if (typeof id !== 'string' || id === '') {
    fail(level.file, [...at, 'id'], `expected an entry id, got ${showValue(id)}`, 'a non-empty string: without one the loader makes up a random id, and loadrace names operations by id')
  }
  if (typeof name !== 'string' || name === '') fail(level.file, [...at, 'name'], `expected a module name, got ${showValue(name)}`, 'a package specifier, a relative path, or a cordis: builtin')
  const loaderId = level.prefix + id
  const label = entryLabel(loaderId)
  const other = walk.labels.get(label)
  if (other !== undefined) {
    fail(level.file, [...at, 'id'], `entry ${JSON.stringify(loaderId)} is named ${label}, as is entry ${JSON.stringify(other)}`, 'entry ids unique within their tree, and distinct after loadrace\'s label mapping')
  }
  walk.labels.set(label, loaderId)
  const entry: TreeEntry = { label, id: loaderId, name, topLevel: level.topLevel, disabled: options.disabled === true }
  walk.entries.push(entry)
  if (entry.disabled) return

  const isInclude = name === 'cordis:include' || name === INCLUDE_PACKAGE
  if (!name.startsWith('cordis:')) {
    const loaded = await loadModule(name, dirname(level.file), walk.system)
    if (!isLoaded(loaded)) fail(level.file, [...at, 'name'], loaded.problem, loaded.allowed)
    entry.module = loaded
  }
  const groupEntries = (options.group === true || name === 'cordis:group') && Array.isArray(options.config) ? options.config as unknown[] : undefined
  const nests = isInclude || groupEntries !== undefined
  if (nests && level.depth >= MAX_NESTING) fail(level.file, at, `groups and includes nested more than ${MAX_NESTING} deep`, 'a finite nesting (does a file include itself?)')
  if (isInclude) {
    entry.include = true
    const file = includedFile(options, level, at)
    const config = options.config as Record<string, unknown>
    const listed = await readEntryList(file, { file: level.file, path: [...at, 'config', 'path'] }, walk.system)
    const patched = walk.system.include.applyEntryPatches(listed as EntryOptions[], config.patches as never, () => {})
    const inner: Level = { file, prefix: loaderId + LOADER_ID_SEPARATOR, topLevel: false, depth: level.depth + 1 }
    await walkList(patched, inner, walk, [])
    return
  }
  if (groupEntries) {
    // A group's entries live in the same tree as the group: their ids are not prefixed.
    await walkList(groupEntries, { ...level, topLevel: false, depth: level.depth + 1 }, walk, [...at, 'config'])
  }
}

async function walkList(list: readonly unknown[], level: Level, walk: Walk, path: FieldPath): Promise<void> {
  for (const [index, options] of list.entries()) await walkEntry(options, index, level, walk, path)
}

/**
 * Whether YAML text is a loader entry list (a cordis.yml: a top-level list)
 * rather than a scenario (a mapping): its first content line opens a block
 * or flow sequence. Decided from the text alone, so hostile input (deep
 * nesting, custom tags) is left to the parser that reports it on one line.
 */
export function isEntryListText(text: string): boolean {
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith('%') || line === '---') continue
    const body = line.startsWith('--- ') ? line.slice(4).trimStart() : line
    return body === '-' || body.startsWith('- ') || body.startsWith('[')
  }
  return false
}

/**
 * Reads the cordis.yml at `file` (absolute) and every file it includes,
 * imports every module an enabled entry names (from the folder of the file
 * naming it), and returns the entries, or the one problem that stops the
 * loader from reading the tree the same way (located in the file holding it).
 */
export async function readConfigurationFile(file: string, system: System): Promise<ConfigurationFile | ScenarioErrorFields> {
  const walk: Walk = { entries: [], labels: new Map(), system }
  try {
    const list = await readEntryList(file, undefined, system)
    await walkList(list, { file, prefix: '', topLevel: true, depth: 0 }, walk, [])
  } catch (error) {
    if (error instanceof TreeProblem) return error.fields
    throw error
  }
  return { file, entries: walk.entries }
}
