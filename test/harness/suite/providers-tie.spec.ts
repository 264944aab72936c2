import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORDS_VARIABLE, SCHEDULE_VARIABLE, type BootRecord, type RunSchedule } from '../../../harness/preload/protocol.js'
import { nodeOptionsWithPreload } from '../../../harness/suite/command-run.ts'
import { planConfigurations } from '../../../harness/suite/plan.ts'
import { SUITE_APP, SUITE_APP_BIN } from '../../support/suite-app.ts'

/**
 * The shape of dsh's `advanced` tie, on the fixture application
 * (configs/providers.cordis.yml): `a` (mounted by `a-host`) waits for three
 * providers, `b` for one, both for the prompt, which is read last. In the
 * natural order both apply at the prompt's release, `a` first; the reverse
 * releases `a`'s needs first, `a` first again. Booted for real under the
 * preload: the pair cover over imports (the natural order and its reverse)
 * never puts `b` first, and the default plan over applies does in one row.
 *
 * The reference boot releases the entries in the natural shape's order as a
 * row, not as this machine happens to read them: a loaded machine can read
 * the late files in another order, and the plan under test must start from
 * the shape the configuration describes, not from the load of the moment.
 */

const CONFIG = 'configs/providers.cordis.yml'
/** The natural shape (configs/providers.cordis.yml): b's needs early, a's three providers and host late, the prompt last. */
const NATURAL_SHAPE = ['probe', 'b', 'q', 'p1', 'p2', 'p3', 'a-host', 'prompt']
const run = promisify(execFile)
let folder: string
let natural: BootRecord

/** Boots the fixture app on the configuration under `schedule`: its sections, and its process record. */
async function boot(schedule: Omit<RunSchedule, 'project'>): Promise<{ sections: string[], record: BootRecord }> {
  const file = join(folder, 'schedule.json')
  const records = join(folder, 'records')
  rmSync(records, { recursive: true, force: true })
  mkdirSync(records)
  writeFileSync(file, JSON.stringify({ ...schedule, project: SUITE_APP }))
  const { stdout } = await run(process.execPath, [SUITE_APP_BIN, join(SUITE_APP, CONFIG)], {
    cwd: SUITE_APP, env: { ...process.env, NODE_OPTIONS: nodeOptionsWithPreload(undefined), [SCHEDULE_VARIABLE]: file, [RECORDS_VARIABLE]: records },
  })
  const [record] = readdirSync(records).map(name => JSON.parse(readFileSync(join(records, name), 'utf8')) as BootRecord)
  return { sections: (JSON.parse(stdout.split('\n').find(line => line.startsWith('{'))!) as { sections: string[] }).sections, record: record! }
}

const bFirst = (sections: readonly string[]) => sections.indexOf('b') < sections.indexOf('a')

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadrace-providers-'))
  const first = await boot({ mode: 'row', rows: { [CONFIG]: NATURAL_SHAPE } })
  natural = first.record
  expect(first.sections).toEqual(['probe', 'a', 'b'])
}, 60_000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('a tie that turns on the last of three providers', () => {
  it('the reference run realised the shape: b\'s needs released early, a\'s three providers and host late, the prompt last', () => {
    const at = (entry: string) => natural.released.indexOf(entry)
    expect(Math.max(at('b'), at('q'))).toBeLessThan(Math.min(at('p1'), at('p2'), at('p3'), at('a-host')))
    expect(at('prompt')).toBe(natural.released.length - 1)
  })

  it('is missed by the pair cover over imports: neither the natural order nor its reverse puts b first', async () => {
    const [plan] = planConfigurations([natural], { strategy: 'cover', strength: 2, budget: 2, seed: '0' })
    const rows = [plan!.natural!, ...plan!.rows]
    expect(rows).toHaveLength(2)
    expect(rows[1]).toEqual([...natural.released].reverse())
    for (const row of rows) expect(bFirst((await boot({ mode: 'row', rows: { [CONFIG]: row } })).sections), row.join(',')).toBe(false)
  }, 60_000)

  it('is found by the default plan over applies in one row after the natural run', async () => {
    const [plan] = planConfigurations([natural], { strategy: 'applies', strength: 2, budget: 2, seed: '0' })
    expect(plan!.rows).toHaveLength(1)
    const { sections, record } = await boot({ mode: 'row', rows: { [CONFIG]: plan!.rows[0]! } })
    expect(bFirst(sections), plan!.rows[0]!.join(',')).toBe(true)
    const applied = record.applies!.map(apply => apply.unit)
    expect(applied.indexOf('b')).toBeLessThan(applied.indexOf('a-host › tool-s'))
  }, 60_000)
})
