import { existsSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { stringify } from 'yaml'
import type { ClassPin, SnapshotTableEntry, SnapshotTarget } from '../targets/definition.ts'
import { snapshotTarget } from '../targets/registry.ts'
import { InputError } from './errors.ts'

/** A path of a scenario file's key, relative to the scenario's folder, POSIX separators. */
function relativeTo(folder: string, path: string): string {
  const rel = relative(folder, path).split(sep).join('/')
  return rel.startsWith('.') ? rel : `./${rel}`
}

/** The `tests/` folder a snapshot folder sits in (`…/tests/snapshots/NAME`). */
function testsFolderOf(snapshot: string): string {
  return dirname(dirname(snapshot))
}

/** A scenario file to write: the snapshot it is made from, its path and its text. */
export interface Planned {
  snapshot: string
  file: string
  text: string
}

/** A message about `snapshot` with its absolute path shown relative to the working directory. */
function shown(message: string, snapshot: string): string {
  return message.split(snapshot).join(relative(process.cwd(), snapshot) || '.')
}

/**
 * The pinned files that judge a snapshot: the folder's own, which it pins
 * itself; else those of its header class's pin, which the table names
 * (`pinned:`); or why it has none.
 */
function pinsOf(target: SnapshotTarget, snapshot: string, table: ReadonlyMap<string, SnapshotTableEntry>): { pin?: ClassPin } | { reason: string } {
  const name = basename(snapshot)
  const unpinned = target.snapshots.pinsProblem(snapshot)
  if (unpinned === undefined) return {}
  if (!table.has(name)) return { reason: shown(unpinned, snapshot) }
  const pin = target.snapshots.classPin(name, table, dirname(snapshot))
  return 'problem' in pin ? { reason: shown(pin.problem, snapshot) } : { pin }
}

/** The scenario file of one snapshot, or why there is none. */
function planOne(target: SnapshotTarget, snapshot: string, table: ReadonlyMap<string, SnapshotTableEntry>, options: { out: string, config?: string, budget: number }): Planned | { skipped: string, reason: string } {
  const name = basename(snapshot)
  const entry = table.get(name)
  const problem = target.snapshots.problem(snapshot)
  if (problem !== undefined) return { skipped: name, reason: shown(problem, snapshot) }
  if (entry?.unknownConditions !== undefined) return { skipped: name, reason: `the table runs it only where ${entry.unknownConditions.join(', ')} holds, which loadrace cannot check` }
  const pins = pinsOf(target, snapshot, table)
  if ('reason' in pins) return { skipped: name, reason: pins.reason }
  const live = entry?.config ?? options.config ?? join(dirname(testsFolderOf(snapshot)), 'cordis.yml')
  const replay = target.snapshots.replayConfigOf(live)
  if (!existsSync(replay)) return { skipped: name, reason: `its configuration ${live} has no replay configuration beside it (${basename(replay)})` }
  const judged = pins.pin === undefined || pins.pin.role === 'pin' ? '' : `; judged against the pin of its header class ${pins.pin.headerClass} (${pins.pin.pin}), as ${target.name}'s suite judges it`
  const scenario = {
    name,
    description: `${target.name} snapshot ${name}, booted from ${basename(replay)} as ${target.name}'s snapshot harness boots it${judged}`,
    target: target.name,
    app: 'entries',
    entries: relativeTo(options.out, replay),
    snapshot: relativeTo(options.out, snapshot),
    ...target.snapshots.processPerTest ? { process: 'fresh' } : {},
    ...pins.pin === undefined ? {} : { pinned: { systemPrompt: relativeTo(options.out, pins.pin.systemPrompt), toolSchemas: relativeTo(options.out, pins.pin.toolSchemas), role: pins.pin.role } },
    ...entry?.requires === undefined ? {} : { requires: { ...entry.requires.commands.length > 0 ? { commands: entry.requires.commands } : {}, ...entry.requires.platforms.length > 0 ? { platforms: entry.requires.platforms } : {} } },
    ...entry !== undefined && Object.keys(entry.env).length > 0 ? { env: entry.env } : {},
    budget: options.budget,
    expect: { outcome: 'completed', snapshot: 'holds' },
  }
  const header = `# Written by \`loadrace snapshots\` from ${relativeTo(options.out, snapshot)}: sweep it with\n# \`loadrace sweep ${basename(options.out)}/${name}.yml\`. A snapshot that pins one load order fails here\n# until the race is fixed (or is expected with \`snapshot: pins-one\`).\n`
  return { snapshot, file: join(options.out, `${name}.yml`), text: `${header}${stringify(scenario, { lineWidth: 0 })}` }
}

/** How `snapshotScenarios` writes each scenario. */
export interface SnapshotScenarioOptions {
  /** The folder the files go to; default loadrace/ beside the first snapshot's tests/ folder. */
  out?: string
  /** dsh's scenario table; default acp.snapshot.ts beside snapshots/ (when there is one). */
  table?: string
  /** The live configuration of a snapshot the table does not map. */
  config?: string
  budget: number
}

/**
 * The scenario file of each dsh snapshot folder under `folders` (a snapshot
 * folder, or a folder of them): app: entries on the replay configuration it
 * was recorded with, target dsh, expect.snapshot: holds; and each snapshot
 * that has none, with why. Throws an `InputError` for folders without a
 * snapshot and for a table or configuration that does not exist.
 */
export function snapshotScenarios(folders: readonly string[], options: SnapshotScenarioOptions): { out: string, planned: Planned[], skipped: string[] } {
  if (folders.length === 0) throw new InputError(['name a snapshot folder (tests/snapshots/NAME) or a folder of them (tests/snapshots)'])
  const target = snapshotTarget()
  const snapshots = folders.flatMap(folder => target.snapshots.foldersIn(folder))
  if (snapshots.length === 0) throw new InputError(folders.map(folder => `${folder}: no snapshot folder here (a folder holding input.json, or a folder of them)`))
  const first = testsFolderOf(snapshots[0]!)
  const out = resolve(options.out ?? join(dirname(first), 'loadrace'))
  const tableFile = options.table ?? join(first, target.snapshots.tableFile)
  if (options.table !== undefined && !existsSync(tableFile)) throw new InputError([`--table ${tableFile}: no such file`])
  const table = existsSync(tableFile) ? target.snapshots.readTable(tableFile) : new Map<string, SnapshotTableEntry>()
  const config = options.config
  if (config !== undefined && !existsSync(config)) throw new InputError([`--config ${config}: no such file`])
  const planned: Planned[] = []
  const skipped: string[] = []
  for (const snapshot of snapshots) {
    const plan = planOne(target, snapshot, table, { out, ...config === undefined ? {} : { config: resolve(config) }, budget: options.budget })
    if ('skipped' in plan) skipped.push(`${plan.skipped}: ${plan.reason}`)
    else planned.push(plan)
  }
  return { out, planned, skipped }
}
