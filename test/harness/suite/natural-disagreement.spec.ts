import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { TestReport } from '../../../harness/report/test-report.ts'
import { runCli } from '../../support/cli.ts'
import { SUITE_APP } from '../../support/suite-app.ts'

/**
 * Two tests boot one cordis.yml, each in a process of its own, and left to
 * themselves their boots load it in opposite orders (late-tests/: each test
 * makes the other plugin of the tie slow to read). Each test passes in the
 * natural run and pins one side of the tie. Between them the natural run
 * showed both orders of the tie, but each test saw one: that order counts
 * for no test, so the plan's rows give both to each, and each side is
 * rerun from a run whose order for the test is known (under `node --test`
 * no boot says which test started it, and the natural run's first boot is
 * the other test's).
 */

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-natural-disagreement-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

it('a natural run whose boots of one cordis.yml disagreed counts neither order: both tests pin one, neither is flaky', async () => {
  const report = join(folder, 'report')
  const run = await runCli(['test', '--reruns', '1', '--report', report, '--', process.execPath, '--test', 'late-tests/late.test.mjs'], { cwd: SUITE_APP })
  const said = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as TestReport
  // The premise: the natural run's two boots applied the tie's plugins in opposite orders (prompt, which both wait
  // for, may be released before or after them), and both tests passed in it.
  const natural = said.runs.find(each => each.name === 'natural')!
  const tie = (boot: (typeof natural.processes)[number]) => boot.applies!.map(apply => apply.unit).filter(unit => unit !== 'prompt').join(' ')
  expect(natural.processes.map(tie).sort()).toEqual(['alpha beta', 'beta alpha'])
  expect(natural.exitCode).toBe(0)
  const [configuration] = said.configurations
  expect(configuration).toMatchObject({ configuration: 'configs/late.cordis.yml', naturalOrders: 0, rows: 2, guarantee: 'applies:2' })
  expect(run.code, run.stdout).toBe(1)
  expect(said.tests.map(test => [test.name, test.verdict])).toEqual([
    ['alpha before beta, beta read late', 'pins-one'],
    ['beta before alpha, alpha read late', 'pins-one'],
  ])
  for (const test of said.tests) {
    expect(new Set(test.pinsOne!.blame!.plugins)).toEqual(new Set(['alpha', 'beta']))
    // Each side from a run of the plan, whose boots all followed one row.
    expect([test.pinsOne!.passing.run, test.pinsOne!.failing.run].sort()).toEqual(['schedule-1', 'schedule-2'])
  }
}, 120_000)
