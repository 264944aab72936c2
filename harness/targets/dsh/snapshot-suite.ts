/**
 * dsh's snapshot suite as its repository lays it out: `tests/snapshots/NAME/`
 * folders, and the scenario table (`examples/acp-agent/tests/acp.snapshot.ts`)
 * that says of each snapshot the live configuration it was recorded with
 * (`configPath`, else the app's `cordis.yml`), the variables it sets (`env`),
 * its header class (`headerClass`, default `default`: exactly one scenario of
 * a class sets `pinsHeader` and owns the class's pinned files, or borrows
 * them with `systemPromptSource` / `toolSchemasSource`; every classmate's
 * headers are held to that pin), and the conditions under which dsh's suite
 * skips its run (`pwshOnly`, `posixOnly`). The table is TypeScript; loadrace
 * reads those facts from its text — the `…_CONFIG = fileURLToPath(new
 * URL('…', import.meta.url))` constants and each `{ name: '…', … }` entry —
 * and nothing else. The configuration a replay boots is the live one with its
 * basename's `cordis.yml` turned into `cordis.snapshot.yml`, as dsh's app
 * boot resolves it (`resolveConfigPath`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Requirements } from '../../hosts/requirements.ts'
import type { ClassPin, SnapshotTableEntry } from '../definition.ts'
import { SNAPSHOT_FILES } from './snapshot.ts'

/** What the table says of one snapshot (its run conditions as {@link SUITE_CONDITIONS} reads them). */
export type SuiteEntry = SnapshotTableEntry

/**
 * The run conditions of dsh's scenario table, each as what it asks of the
 * machine: dsh's suite skips the scenario's run where it is not met, and a
 * sweep skips the scenario written for it there too.
 */
export const SUITE_CONDITIONS: Readonly<Record<string, Requirements>> = {
  /** The composition boots the real PowerShell executor: dsh skips the run without a usable `pwsh`. */
  pwshOnly: { commands: ['pwsh'], platforms: [] },
  /** POSIX process semantics or paths Windows cannot hold: dsh skips the run on Windows. */
  posixOnly: { commands: [], platforms: ['posix'] },
}

/** The replay configuration of a live one: `X.cordis.yml` → `X.cordis.snapshot.yml`, in the same folder. */
export function replayConfigOf(live: string): string {
  return join(dirname(live), basename(live).replace(/cordis\.ya?ml$/, 'cordis.snapshot.yml'))
}

/** The `{ … }` literal that starts at `open` (the index of its `{`), braces inside strings and comments ignored. */
function literalAt(text: string, open: number): string {
  let depth = 0
  let quote: string | undefined
  for (let i = open; i < text.length; i++) {
    const char = text[i]!
    if (quote !== undefined) {
      if (char === '\\') i++
      else if (char === quote) quote = undefined
      continue
    }
    if (char === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i)
    else if (char === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 1
    else if (char === '\'' || char === '"' || char === '`') quote = char
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return text.slice(open, i + 1)
  }
  return text.slice(open)
}

/** The string-valued keys of an `env: { KEY: 'value', … }` literal. */
function envOf(literal: string): Record<string, string> {
  const start = /\benv:\s*\{/.exec(literal)
  if (!start) return {}
  const body = literalAt(literal, start.index + start[0].length - 1)
  const env: Record<string, string> = {}
  for (const match of body.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(['"])((?:\\.|(?!\2).)*)\2/g)) env[match[1]!] = match[3]!
  return env
}

/** The scenario table at `file`, by snapshot name. */
export function readSuiteTable(file: string): Map<string, SuiteEntry> {
  const text = readFileSync(file, 'utf8')
  const base = pathToFileURL(file)
  const constants = new Map<string, string>()
  for (const match of text.matchAll(/const ([A-Z][A-Z0-9_]*)\s*=\s*fileURLToPath\(\s*new URL\(\s*'([^']+)'\s*,\s*import\.meta\.url\s*\)\s*,?\s*\)/g)) {
    constants.set(match[1]!, fileURLToPath(new URL(match[2]!, base)))
  }
  const entries = new Map<string, SuiteEntry>()
  for (const match of text.matchAll(/\{\s*name:\s*'([a-z0-9][a-z0-9-]*)'/g)) {
    const literal = withoutComments(literalAt(text, match.index))
    const config = /\bconfigPath:\s*([A-Z][A-Z0-9_]*)/.exec(literal)?.[1]
    const quoted = (key: string) => new RegExp(`\\b${key}:\\s*'([^']*)'`).exec(literal)?.[1]
    const conditions = [...literal.matchAll(/\b([a-z][A-Za-z0-9]*Only):\s*true\b/g)].map(found => found[1]!)
    const known = conditions.filter(name => Object.hasOwn(SUITE_CONDITIONS, name)).map(name => SUITE_CONDITIONS[name]!)
    const unknown = conditions.filter(name => !Object.hasOwn(SUITE_CONDITIONS, name))
    const entry: SuiteEntry = { name: match[1]!, ...config !== undefined && constants.has(config) ? { config: constants.get(config)! } : {}, env: envOf(literal) }
    for (const key of ['headerClass', 'systemPromptSource', 'toolSchemasSource'] as const) if (quoted(key) !== undefined) entry[key] = quoted(key)
    if (/\bpinsHeader:\s*true\b/.test(literal)) entry.pinsHeader = true
    if (known.length > 0) entry.requires = { commands: [...new Set(known.flatMap(item => item.commands))], platforms: [...new Set(known.flatMap(item => item.platforms))] }
    if (unknown.length > 0) entry.unknownConditions = unknown
    entries.set(match[1]!, entry)
  }
  return entries
}

/** A literal's text without its `//` and block comments (strings are left as they are: the keys read here are outside them). */
function withoutComments(literal: string): string {
  return literal.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1')
}

export type { ClassPin }

/**
 * The pinned files of `name`'s header class, as dsh's suite finds them: the
 * class's one `pinsHeader` scenario, its files in its own folder under
 * `snapshots` or in the folders of the scenarios it borrows them from. A
 * class nobody pins, or pinned twice, or a pinned file that is missing, is the
 * returned problem.
 */
export function classPinOf(name: string, table: ReadonlyMap<string, SuiteEntry>, snapshots: string): ClassPin | { problem: string } {
  const headerClass = table.get(name)?.headerClass ?? 'default'
  const pins = [...table.values()].filter(entry => entry.pinsHeader === true && (entry.headerClass ?? 'default') === headerClass)
  if (pins.length === 0) return { problem: `no scenario of the table pins its header class "${headerClass}"` }
  if (pins.length > 1) return { problem: `its header class "${headerClass}" is pinned by both ${pins[0]!.name} and ${pins[1]!.name}` }
  const pin = pins[0]!
  const systemPrompt = join(snapshots, pin.systemPromptSource ?? pin.name, SNAPSHOT_FILES.systemPrompt)
  const toolSchemas = join(snapshots, pin.toolSchemasSource ?? pin.name, SNAPSHOT_FILES.toolSchemas)
  const missing = [systemPrompt, toolSchemas].find(file => !existsSync(file))
  if (missing !== undefined) return { problem: `the pin of its header class "${headerClass}" (${pin.name}) has no ${missing}` }
  return { headerClass, pin: pin.name, role: pin.name === name ? 'pin' : 'classmate', systemPrompt, toolSchemas }
}

/** The snapshot folders under `path`: `path` itself when it holds an `input.json`, else its subfolders that do, by name. */
export function snapshotFoldersIn(path: string): string[] {
  const dir = resolve(path)
  if (existsSync(join(dir, SNAPSHOT_FILES.input))) return [dir]
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter(entry => entry.isDirectory() && existsSync(join(dir, entry.name, SNAPSHOT_FILES.input)))
    .map(entry => join(dir, entry.name))
    .sort()
}
