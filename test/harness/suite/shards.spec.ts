import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestReport as SuiteReport } from '../../../harness/report/test-report.ts'
import { runCli } from '../../support/cli.ts'
import { SUITE_APP, SUITE_APP_COMMAND } from '../../support/suite-app.ts'

/**
 * `loadrace test --shard i/n` and `loadrace merge`: the fixture's suite
 * (test/fixtures/suite-app) in two shards, merged. Each shard runs the
 * natural run and half of the schedules; the merge judges every test on
 * all of them, as the unsharded run does.
 */

const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as SuiteReport
const verdicts = (report: SuiteReport) => Object.fromEntries(report.tests.map(test => [test.name, test.verdict]))
// The random test is left out: whether it shows both results depends on the draw, not on the shards.
const COMMAND = [...SUITE_APP_COMMAND, '-t', 'tied|broken tie (orders|expects)']

describe('loadrace test in shards, merged', () => {
  let folder: string
  beforeAll(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-shards-')) })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('each shard runs its schedules, and the merge gives the verdicts of one unsharded run', async () => {
    const [one, two] = await Promise.all(['1/2', '2/2'].map(shard => runCli(['test', '--shard', shard, '--report', join(folder, shard.replace('/', '-')), '--', ...COMMAND], { cwd: SUITE_APP })))
    expect(one!.code, one!.stderr).toBe(1)
    expect(two!.code, two!.stderr).toBe(1)
    const shards = [read(join(folder, '1-2')), read(join(folder, '2-2'))]
    expect(shards.map(shard => shard.runs.map(run => run.name))).toEqual([['natural', 'schedule-1'], ['natural', 'schedule-2']])

    const merged = await runCli(['merge', join(folder, '1-2'), join(folder, '2-2'), '--report', join(folder, 'merged')], { cwd: SUITE_APP })
    expect(merged.code, merged.stderr).toBe(1)
    const report = read(join(folder, 'merged'))
    expect(report.runs.map(run => run.name)).toEqual(['natural', 'schedule-1', 'schedule-2'])
    expect(report.options.shard).toBeNull()

    const whole = await runCli(['test', '--report', join(folder, 'whole'), '--', ...COMMAND], { cwd: SUITE_APP })
    expect(whole.code).toBe(1)
    expect(verdicts(report)).toEqual(verdicts(read(join(folder, 'whole'))))
    expect(verdicts(report)['the tied configuration pins alpha before beta']).toBe('pins-one')
    // Each shard ran its own natural run, which may load differently from the other's: no shard counts it as a row,
    // so the schedules alone make the plan and its claim does not hang on the references agreeing.
    expect(shards.flatMap(shard => shard.configurations.map(plan => plan.fromReference))).toEqual([false, false, false, false])
    expect(report.configurations.map(plan => plan.fromReference)).toEqual([false, false])
    // The merge plans over applies as the shards did (their records keep when each plugin applied), and claims the
    // pair cover over applies only because the applies of every process, both natural runs' among them, show it.
    expect(report.configurations.map(plan => [plan.over, plan.guarantee, plan.note])).toEqual([['applies', 'applies:2', undefined], ['applies', 'applies:2', undefined]])
    expect(report.configurations.map(plan => plan.reach?.orders.shown === plan.reach?.orders.owed)).toEqual([true, true])
  }, 300_000)

  it('refuses shards of different runs, and a missing shard', async () => {
    const missing = await runCli(['merge', join(folder, '1-2'), '--report', join(folder, 'bad')], { cwd: SUITE_APP })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/shard 2\/2 is missing/)
  })
})
