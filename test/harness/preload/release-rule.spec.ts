import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORDS_VARIABLE, SCHEDULE_VARIABLE, type BootRecord } from '../../../harness/preload/protocol.js'
import { nextRelease } from '../../../harness/preload/release-rule.js'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { nodeOptionsWithPreload } from '../../../harness/suite/command-run.ts'
import { loadTarget } from '../../../harness/targets/index.ts'
import { SUITE_APP, SUITE_APP_BIN } from '../../support/suite-app.ts'

/**
 * One release rule (`preload/release-rule.js`) for the in-process scheduler
 * and the preload of `loadrace test`. The rule itself, then both of them on
 * the same inputs: the fixture application's configuration, booted in
 * process by the scheduled loader and in a child process under the preload,
 * each following the same rows, must realise the same order.
 */

const run = promisify(execFile)
const TIE = 'configs/tie.cordis.yml'

describe('the release rule', () => {
  const ready = (labels: string[]) => (label: string) => labels.includes(label)

  it('releases the first operation of the row that may go now', () => {
    expect(nextRelease(['a', 'b', 'c'], ready(['b', 'c']), () => 'x')).toEqual({ label: 'b', named: true })
  })

  it('else one the row does not name, as the system would run it; else nothing', () => {
    expect(nextRelease(['a'], ready([]), () => 'x')).toEqual({ label: 'x', named: false })
    expect(nextRelease([], ready(['a']), () => undefined)).toBeUndefined()
  })
})

describe('the in-process scheduler and the preload, on the same configuration and rows', () => {
  let scenario: Scenario
  let folder: string

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'loadrace-release-rule-'))
    const file = join(folder, 'tie.yml')
    writeFileSync(file, `app: none\nentries: ${join(SUITE_APP, TIE)}\nexpect:\n  outcome: completed\n`)
    scenario = await loadScenario(file)
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  /** The order the preload's process released the entries in, following `row`. */
  async function underPreload(row: readonly string[]): Promise<readonly string[]> {
    const schedule = join(folder, 'schedule.json')
    const records = join(folder, 'records')
    rmSync(records, { recursive: true, force: true })
    mkdirSync(records)
    writeFileSync(schedule, JSON.stringify({ mode: 'row', project: SUITE_APP, rows: { [TIE]: row } }))
    await run(process.execPath, [SUITE_APP_BIN, join(SUITE_APP, TIE)], {
      cwd: SUITE_APP, env: { ...process.env, NODE_OPTIONS: nodeOptionsWithPreload(undefined), [SCHEDULE_VARIABLE]: schedule, [RECORDS_VARIABLE]: records },
    })
    const [record] = readdirSync(records).filter(name => name.endsWith('.json')).map(name => JSON.parse(readFileSync(join(records, name), 'utf8')) as BootRecord)
    return record!.released
  }

  /** The order the in-process scheduler released the same entries in, following `row`. */
  async function inProcess(row: readonly string[]): Promise<readonly string[]> {
    const result = await runInterleaving(scenario, await loadTarget(scenario.target), row)
    const entries = new Set(['prompt', 'alpha', 'beta', 'gamma', 'delta'])
    return result.schedule.filter(op => entries.has(op))
  }

  for (const row of [
    ['prompt', 'alpha', 'beta', 'gamma', 'delta'],
    ['delta', 'gamma', 'beta', 'alpha', 'prompt'],
    ['gamma', 'beta', 'prompt', 'delta', 'alpha'],
    // A row naming only some entries: the rest go as the system runs them.
    ['delta', 'beta'],
  ]) {
    it(`realise the same order for the row ${row.join(',')}`, async () => {
      const [inside, outside] = [await inProcess(row), await underPreload(row)]
      expect(inside).toEqual(outside)
      expect(inside.slice(0, row.length)).toEqual(row)
    }, 60_000)
  }
})
