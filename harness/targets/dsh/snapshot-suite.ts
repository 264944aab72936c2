/**
 * dsh's snapshot suite as its repository lays it out: `tests/snapshots/NAME/`
 * folders, and the scenario table (`examples/acp-agent/tests/acp.snapshot.ts`)
 * that names the live configuration each snapshot was recorded with
 * (`configPath`, else the app's `cordis.yml`) and the variables it sets
 * (`env`). The table is TypeScript; loadrace reads the two facts it needs
 * from its text — the `…_CONFIG = fileURLToPath(new URL('…', import.meta.url))`
 * constants and each `{ name: '…', … }` entry's `configPath` and `env` — and
 * nothing else. The configuration a replay boots is the live one with its
 * basename's `cordis.yml` turned into `cordis.snapshot.yml`, as dsh's app boot
 * resolves it (`resolveConfigPath`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { SNAPSHOT_FILES } from './snapshot.ts'

/** What the table says of one snapshot. */
export interface SuiteEntry {
  name: string
  /** The live configuration, absolute; absent when the table names none (the app's default). */
  config?: string
  env: Record<string, string>
}

/** The replay configuration of a live one: `X.cordis.yml` → `X.cordis.snapshot.yml`, in the same folder. */
export function replayConfigOf(live: string): string {
  return join(dirname(live), basename(live).replace(/cordis\.ya?ml$/, 'cordis.snapshot.yml'))
}

/** The `{ … }` literal that starts at `open` (the index of its `{`), braces inside strings ignored. */
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
    if (char === '\'' || char === '"' || char === '`') quote = char
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
    const literal = literalAt(text, match.index)
    const config = /\bconfigPath:\s*([A-Z][A-Z0-9_]*)/.exec(literal)?.[1]
    entries.set(match[1]!, { name: match[1]!, ...config !== undefined && constants.has(config) ? { config: constants.get(config)! } : {}, env: envOf(literal) })
  }
  return entries
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
