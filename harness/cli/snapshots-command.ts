import { existsSync } from 'node:fs'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { relative } from 'node:path'
import { InputError } from '../scenario/errors.ts'
import { snapshotScenarios } from '../scenario/snapshot-scenarios.ts'
import type { ParsedArgs } from './args.ts'
import type { Cli, Command } from './command.ts'
import { nonEmpty } from './values.ts'
import { OPTIONS as SWEEP_OPTIONS, readSettings } from './options.ts'
import { defaultsOf } from '../sweep/settings.ts'
import { EXIT } from './usage-error.ts'

const OPTIONS = {
  out: { name: 'out', value: 'DIR', default: 'loadrace/ beside the tests/ folder', help: 'folder the scenario files are written to' },
  table: { name: 'table', value: 'FILE', default: 'acp.snapshot.ts beside snapshots/', help: 'dsh\'s scenario table: which live configuration and variables each snapshot was recorded with' },
  config: { name: 'config', value: 'FILE', default: 'cordis.yml beside the tests/ folder', help: 'the live configuration of a snapshot the table does not map' },
  budget: { ...SWEEP_OPTIONS.budget, default: String(defaultsOf('snapshots').budget), help: 'the budget: line of each scenario written, a whole number ≥ 1' },
  force: { name: 'force', help: 'overwrite scenario files that exist' },
} as const

function valueOf(args: ParsedArgs, name: string): string | undefined {
  return args.values.get(name)?.at(-1)
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
    const out = valueOf(args, 'out')
    const table = valueOf(args, 'table')
    const config = valueOf(args, 'config')
    const { budget } = readSettings(args, snapshotsCommand.spec, cli)
    const { out: folder, planned, skipped } = snapshotScenarios(args.operands, {
      ...out === undefined ? {} : { out: nonEmpty('out', out) },
      ...table === undefined ? {} : { table },
      ...config === undefined ? {} : { config },
      budget,
    })
    const existing = planned.filter(plan => existsSync(plan.file))
    if (existing.length > 0 && !args.flags.has('force')) {
      throw new InputError(existing.map(plan => `${relative(process.cwd(), plan.file)} exists (give --force to overwrite it)`))
    }
    await mkdir(folder, { recursive: true })
    for (const plan of planned) {
      await writeFile(`${plan.file}.tmp`, plan.text)
      await rename(`${plan.file}.tmp`, plan.file)
      cli.stdout.write(`wrote ${relative(process.cwd(), plan.file)} (${relative(process.cwd(), plan.snapshot)})\n`)
    }
    for (const line of skipped) cli.stdout.write(`skipped ${line}\n`)
    cli.stdout.write(`${planned.length} scenario file${planned.length === 1 ? '' : 's'} written, ${skipped.length} snapshot${skipped.length === 1 ? '' : 's'} skipped\n`)
    if (planned.length > 0) cli.stdout.write(`sweep them: loadrace sweep ${relative(process.cwd(), folder) || '.'}\n`)
    return planned.length > 0 ? EXIT.ok : EXIT.failed
  },
}
