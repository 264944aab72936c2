import { existsSync } from 'node:fs'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { stringify } from 'yaml'
import { readSnapshot, SnapshotError, snapshotPins } from '../targets/dsh/snapshot.ts'
import { classPinOf, readSuiteTable, replayConfigOf, snapshotFoldersIn, type ClassPin, type SuiteEntry } from '../targets/dsh/snapshot-suite.ts'
import type { ParsedArgs } from './args.ts'
import type { Cli, Command } from './command.ts'
import { nonEmpty, wholeNumber } from './values.ts'
import { EXIT, InputError } from './usage-error.ts'

/** The interleavings each written scenario runs at most: a cover(3) plan of an app's ~30 entries fits, and a sweep stays short. */
const DEFAULT_BUDGET = 24

const OPTIONS = {
  out: { name: 'out', value: 'DIR', default: 'loadrace/ beside the tests/ folder', help: 'folder the scenario files are written to' },
  table: { name: 'table', value: 'FILE', default: 'acp.snapshot.ts beside snapshots/', help: 'dsh\'s scenario table: which live configuration and variables each snapshot was recorded with' },
  config: { name: 'config', value: 'FILE', default: 'cordis.yml beside the tests/ folder', help: 'the live configuration of a snapshot the table does not map' },
  budget: { name: 'budget', value: 'N', default: String(DEFAULT_BUDGET), help: 'the budget: line of each scenario written, a whole number ≥ 1' },
  force: { name: 'force', help: 'overwrite scenario files that exist' },
} as const

function valueOf(args: ParsedArgs, name: string): string | undefined {
  return args.values.get(name)?.at(-1)
}

/** A path of a scenario file's key, relative to the scenario's folder, POSIX separators. */
function relativeTo(folder: string, path: string): string {
  const rel = relative(folder, path).split(sep).join('/')
  return rel.startsWith('.') ? rel : `./${rel}`
}

/** The `tests/` folder a snapshot folder sits in (`…/tests/snapshots/NAME`). */
function testsFolderOf(snapshot: string): string {
  return dirname(dirname(snapshot))
}

interface Planned {
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
function pinsOf(snapshot: string, table: ReadonlyMap<string, SuiteEntry>): { pin?: ClassPin } | { reason: string } {
  const name = basename(snapshot)
  try {
    snapshotPins(snapshot)
    return {}
  } catch (error) {
    if (!(error instanceof SnapshotError)) throw error
    if (!table.has(name)) return { reason: shown(error.message, snapshot) }
  }
  const pin = classPinOf(name, table, dirname(snapshot))
  return 'problem' in pin ? { reason: shown(pin.problem, snapshot) } : { pin }
}

/** The scenario file of one snapshot, or why there is none. */
function planOne(snapshot: string, table: ReadonlyMap<string, SuiteEntry>, options: { out: string, config?: string, budget: number }): Planned | { skipped: string, reason: string } {
  const name = basename(snapshot)
  const entry = table.get(name)
  try {
    readSnapshot(snapshot)
  } catch (error) {
    if (error instanceof SnapshotError) return { skipped: name, reason: shown(error.message, snapshot) }
    throw error
  }
  if (entry?.unknownConditions !== undefined) return { skipped: name, reason: `the table runs it only where ${entry.unknownConditions.join(', ')} holds, which loadrace cannot check` }
  const pins = pinsOf(snapshot, table)
  if ('reason' in pins) return { skipped: name, reason: pins.reason }
  const live = entry?.config ?? options.config ?? join(dirname(testsFolderOf(snapshot)), 'cordis.yml')
  const replay = replayConfigOf(live)
  if (!existsSync(replay)) return { skipped: name, reason: `its configuration ${live} has no replay configuration beside it (${basename(replay)})` }
  const judged = pins.pin === undefined || pins.pin.role === 'pin' ? '' : `; judged against the pin of its header class ${pins.pin.headerClass} (${pins.pin.pin}), as dsh's suite judges it`
  const scenario = {
    name,
    description: `dsh snapshot ${name}, booted from ${basename(replay)} as dsh's snapshot harness boots it${judged}`,
    target: 'dsh',
    app: 'entries',
    entries: relativeTo(options.out, replay),
    snapshot: relativeTo(options.out, snapshot),
    ...pins.pin === undefined ? {} : { pinned: { systemPrompt: relativeTo(options.out, pins.pin.systemPrompt), toolSchemas: relativeTo(options.out, pins.pin.toolSchemas), role: pins.pin.role } },
    ...entry?.requires === undefined ? {} : { requires: { ...entry.requires.commands.length > 0 ? { commands: entry.requires.commands } : {}, ...entry.requires.platforms.length > 0 ? { platforms: entry.requires.platforms } : {} } },
    ...entry !== undefined && Object.keys(entry.env).length > 0 ? { env: entry.env } : {},
    budget: options.budget,
    expect: { outcome: 'completed', snapshot: 'holds' },
  }
  const header = `# Written by \`loadrace snapshots\` from ${relativeTo(options.out, snapshot)}: sweep it with\n# \`loadrace sweep ${basename(options.out)}/${name}.yml\`. A snapshot that pins one load order fails here\n# until the race is fixed (or is expected with \`snapshot: pins-one\`).\n`
  return { snapshot, file: join(options.out, `${name}.yml`), text: `${header}${stringify(scenario, { lineWidth: 0 })}` }
}

/** `loadrace snapshots`: scenario files for dsh snapshot folders, so a dsh developer sweeps the suite without writing YAML. */
export const snapshotsCommand: Command = {
  spec: {
    name: 'snapshots',
    summary: 'write a scenario file for each dsh snapshot folder, to sweep dsh\'s snapshot suite',
    synopsis: 'snapshots FOLDER… [options]',
    description: [
      'Turns dsh snapshot folders (tests/snapshots/NAME, with input.json and the recorded session) — or a whole '
        + 'tests/snapshots/ — into scenario files: app: entries on the replay configuration the snapshot was recorded with '
        + '(from dsh\'s scenario table, acp.snapshot.ts, else cordis.yml), target dsh, snapshot: the folder, '
        + 'expect.snapshot: holds. Each is judged as dsh\'s suite judges it: against its own pinned files, or (pinned:) '
        + 'those of its header class\'s pin; the table\'s run conditions (pwshOnly, posixOnly) become requires:, so a '
        + 'sweep skips it where dsh\'s suite does. A snapshot whose class has no pin, or that drives ACP steps loadrace '
        + 'does not drive, is listed as skipped with why.',
      'Nothing is overwritten without --force; every file is written whole or not at all.',
    ],
    operands: [{ name: 'FOLDER…', help: 'snapshot folders, or folders of them' }],
    options: Object.values(OPTIONS),
    maxOperands: Infinity,
  },
  async run(args, cli: Cli) {
    if (args.operands.length === 0) throw new InputError(['name a snapshot folder (tests/snapshots/NAME) or a folder of them (tests/snapshots)'])
    const snapshots = args.operands.flatMap(folder => snapshotFoldersIn(folder))
    if (snapshots.length === 0) throw new InputError(args.operands.map(folder => `${folder}: no snapshot folder here (a folder holding input.json, or a folder of them)`))
    const first = testsFolderOf(snapshots[0]!)
    const out = resolve(valueOf(args, 'out') === undefined ? join(dirname(first), 'loadrace') : nonEmpty('out', valueOf(args, 'out')!))
    const tableFile = valueOf(args, 'table') ?? join(first, 'acp.snapshot.ts')
    if (valueOf(args, 'table') !== undefined && !existsSync(tableFile)) throw new InputError([`--table ${tableFile}: no such file`])
    const table = existsSync(tableFile) ? readSuiteTable(tableFile) : new Map<string, SuiteEntry>()
    const config = valueOf(args, 'config')
    if (config !== undefined && !existsSync(config)) throw new InputError([`--config ${config}: no such file`])
    const budget = valueOf(args, 'budget') === undefined ? DEFAULT_BUDGET : wholeNumber('budget', valueOf(args, 'budget')!, 1)
    const planned: Planned[] = []
    const skipped: string[] = []
    for (const snapshot of snapshots) {
      const plan = planOne(snapshot, table, { out, ...config === undefined ? {} : { config: resolve(config) }, budget })
      if ('skipped' in plan) skipped.push(`${plan.skipped}: ${plan.reason}`)
      else planned.push(plan)
    }
    const existing = planned.filter(plan => existsSync(plan.file))
    if (existing.length > 0 && !args.flags.has('force')) {
      throw new InputError(existing.map(plan => `${relative(process.cwd(), plan.file)} exists (give --force to overwrite it)`))
    }
    await mkdir(out, { recursive: true })
    for (const plan of planned) {
      await writeFile(`${plan.file}.tmp`, plan.text)
      await rename(`${plan.file}.tmp`, plan.file)
      cli.stdout.write(`wrote ${relative(process.cwd(), plan.file)} (${relative(process.cwd(), plan.snapshot)})\n`)
    }
    for (const line of skipped) cli.stdout.write(`skipped ${line}\n`)
    cli.stdout.write(`${planned.length} scenario file${planned.length === 1 ? '' : 's'} written, ${skipped.length} snapshot${skipped.length === 1 ? '' : 's'} skipped\n`)
    if (planned.length > 0) cli.stdout.write(`sweep them: loadrace sweep ${relative(process.cwd(), out) || '.'}\n`)
    return planned.length > 0 ? EXIT.ok : EXIT.failed
  },
}
