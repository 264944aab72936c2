import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestReport as SuiteReport } from '../../../harness/report/test-report.ts'
import { runCli, type CliRun } from '../../support/cli.ts'
import { SUITE_APP, SUITE_APP_COMMAND } from '../../support/suite-app.ts'

/**
 * `loadrace test` over the fixture application's own vitest suite
 * (test/fixtures/suite-app). What each test must be follows from the
 * fixture's definition: alpha and beta share order 10 in tie.cordis.yml and
 * sections of equal order keep registration order, so a test pinning either
 * side pins a load-order race; broken.cordis.yml gives them distinct orders;
 * one test expects a tool no configuration has; one test is skipped;
 * providers.cordis.yml has the shape of dsh's `advanced` tie (a waits for
 * three providers and its host, b for one; both for the prompt, read last).
 */

const TIE = 'configs/tie.cordis.yml'
const BROKEN = 'configs/broken.cordis.yml'
const PROVIDERS = 'configs/providers.cordis.yml'

describe('loadrace test on a cordis application\'s own suite', () => {
  let folder: string
  let run: CliRun
  let report: SuiteReport
  /** What a test gave in the natural run. */
  const naturalStatus = (finding: SuiteReport['tests'][number]) => finding.results.find(result => result.run === 'natural')?.status
  /** Whether the natural run's orders counted for every configuration: each one's boots in it applied alike. */
  const naturalCounted = () => report.configurations.every(plan => plan.naturalOrders > 0)
  const test = (name: string) => {
    const found = report.tests.find(candidate => candidate.name === name)
    if (!found) throw new Error(`no test ${name} in the report`)
    return found
  }

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'loadrace-suite-'))
    run = await runCli(['test', '--report', folder, '--', ...SUITE_APP_COMMAND], { cwd: SUITE_APP })
    report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as SuiteReport
  }, 240_000)

  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('exits 1: some tests are findings', () => {
    expect(run.code, run.stderr).toBe(1)
  })

  it('a planted tie between two plugins pins one side, blamed on the two entries, with the suite\'s own message and a replay', () => {
    const pinned = test('the tied configuration pins alpha before beta')
    expect(pinned.verdict).toBe('pins-one')
    expect(pinned.pinsOne?.naturalOrderFails).toBe(naturalStatus(pinned) === 'failed')
    expect(pinned.pinsOne?.blame?.configuration).toBe(TIE)
    expect(new Set(pinned.pinsOne?.blame?.entries)).toEqual(new Set(['alpha', 'beta']))
    const failing = pinned.pinsOne!.blame!.failing
    expect(failing.indexOf('beta')).toBeLessThan(failing.indexOf('alpha'))
    expect(pinned.message).toContain('to deeply equal')
    // The suite's own diff, as its reporter printed it when the test ran alone on the failing side.
    expect(pinned.failure).toMatch(/- Expected\n\+ Received/)
    expect(pinned.failure).toContain('"beta",')
    expect(pinned.replay).toContain(`--order ${TIE}=${failing.join(',')}`)
    expect(run.stdout).toContain('pins-one  tests/app.test.mjs › the tied configuration pins alpha before beta')
  })

  it('a test pinning the side this machine\'s natural order does not produce is pins-one, not fails', () => {
    const pinned = test('the tied configuration pins beta before alpha')
    expect(pinned.verdict).toBe('pins-one')
    // Left to itself the loader registers alpha first, so this test fails in the natural run; a loaded machine can
    // move one boot's order, which the report then says.
    expect(pinned.pinsOne?.naturalOrderFails).toBe(naturalStatus(pinned) === 'failed')
    // Its failing side is rerun from the natural run when every configuration's boots in it applied alike (its
    // orders for the test are known), else from a run of the plan.
    expect(pinned.pinsOne?.failing.run).toEqual(naturalCounted() && naturalStatus(pinned) === 'failed' ? 'natural' : expect.stringMatching(/^schedule-/))
  })

  it('the same test holds once the tie is broken, and no schedule finds a tool missing', () => {
    expect(test('the broken tie orders alpha before beta').verdict).toBe('holds')
    expect(test('the tied configuration has every tool when it answers').verdict).toBe('holds')
  })

  it('a failure unrelated to order fails, never blamed on a pair; a skipped test is skipped', () => {
    const failing = test('the broken tie expects a tool the configuration does not have')
    expect(failing.verdict).toBe('fails')
    expect(failing.pinsOne).toBeUndefined()
    expect(test('the broken tie is skipped by the suite').verdict).toBe('skipped')
  })

  it('each configuration gets its own plan over applies, and a nested group\'s entries are part of its space', () => {
    expect(report.configurations.map(plan => plan.configuration)).toEqual([BROKEN, PROVIDERS, TIE])
    const tie = report.configurations.find(plan => plan.configuration === TIE)!
    expect(new Set(tie.entries)).toEqual(new Set(['prompt', 'alpha', 'beta', 'gamma', 'delta']))
    expect(report.configurations.find(plan => plan.configuration === BROKEN)!.entries).toHaveLength(3)
    for (const plan of report.configurations) expect(plan.over).toBe('applies')
    // The default plan: the natural run and one run of rows; two when a configuration's boots in the natural run
    // applied its plugins in different orders (the natural run then counts for none of its tests).
    expect(report.runs.map(run => run.name)).toEqual(naturalCounted() ? ['natural', 'schedule-1'] : ['natural', 'schedule-1', 'schedule-2'])
    const rows = report.runs.find(candidate => candidate.name === 'schedule-1')!.rows
    expect(Object.keys(rows).sort()).toEqual([BROKEN, PROVIDERS, TIE])
  })

  it('a tie that flips only when the last of three providers of one plugin comes after the other\'s is found by the default plan, blamed on the two plugins', () => {
    const pinned = test('the provider chain pins a before b')
    expect(pinned.verdict, JSON.stringify(pinned.results)).toBe('pins-one')
    expect(pinned.pinsOne?.blame?.configuration).toBe(PROVIDERS)
    expect(new Set(pinned.pinsOne?.blame?.plugins)).toEqual(new Set(['a-host › tool-s', 'b']))
    expect(run.stdout).toMatch(/blame: a-host › tool-s ↔ b in configs\/providers\.cordis\.yml \(passes with a-host › tool-s applying first/)
  })

  it('the replay command reruns that test under the failing order and fails it', async () => {
    const pinned = test('the tied configuration pins alpha before beta')
    const order = pinned.pinsOne!.blame!.failing.join(',')
    const replay = await runCli(['test', '--report', join(folder, 'replay'), '--order', `${TIE}=${order}`, '--only', pinned.name, '--', ...SUITE_APP_COMMAND], { cwd: SUITE_APP })
    expect(replay.code).toBe(1)
    expect(replay.stdout).toContain('✗ fails  tests/app.test.mjs › the tied configuration pins alpha before beta')
    expect(replay.stdout).toContain('to deeply equal')
  }, 60_000)
})

describe('loadrace test on a test made flaky by a random value', () => {
  it('is flaky: a rerun alone under the same realised load order gives another result', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'loadrace-flaky-'))
    try {
      // Enough runs that a test failing half the time shows both results (seventeen runs over the tied configuration's
      // 120 orders: a chance of 2⁻¹⁶ that they all agree), and enough reruns alone that it is not mistaken for a
      // pinned race (2⁻¹²).
      const run = await runCli(['test', '--report', folder, '--strategy', 'random', '--budget', '16', '--reruns', '6', '--',
        ...SUITE_APP_COMMAND, '-t', 'draws a random value'], { cwd: SUITE_APP })
      const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as SuiteReport
      const flaky = report.tests.find(test => test.name === 'the broken tie draws a random value')!
      expect(flaky.verdict, run.stdout).toBe('flaky')
      expect(flaky.flaky?.first).not.toBe(flaky.flaky?.rerun)
      expect(run.code).toBe(1)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 240_000)
})

describe('loadrace test narrowing a pinned test to its pair', () => {
  it('runs no order alone twice: the failing side\'s confirming rerun is the narrowing\'s failing end', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'loadrace-narrow-'))
    try {
      const run = await runCli(['test', '--report', folder, '--reruns', '1', '--', ...SUITE_APP_COMMAND, '-t', 'pins alpha before beta'], { cwd: SUITE_APP })
      expect(run.code, run.stderr).toBe(1)
      const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as SuiteReport
      const [pinned] = report.tests.filter(test => test.verdict !== 'skipped')
      expect(pinned?.verdict, run.stdout).toBe('pins-one')
      const blame = pinned!.pinsOne!.blame!
      // One confirming rerun per side; the narrowing then runs the orders of its walk (`blame.runs`, both ends
      // included). Its passing end is the passing side's order and its failing end the order the failing side's
      // confirming rerun loaded, both known already: each other order is one rerun, and nothing more.
      expect(blame.runs).toBeGreaterThanOrEqual(2)
      expect(report.summary.reruns).toBe(2 + blame.runs - 2)
      // The natural side is rerun under the order the natural run realised, given as a row, not left to the machine.
      expect(pinned!.pinsOne!.passing.run).toBe('natural')
      const naturalOrder = report.runs.find(each => each.name === 'natural')!.processes.find(record => record.configuration === TIE)!.released
      const rerun = JSON.parse(readFileSync(join(folder, 'runs', 'rerun-1', 'schedule.json'), 'utf8')) as { mode: string, rows: Record<string, string[]> }
      expect(rerun).toMatchObject({ mode: 'row', rows: { [TIE]: naturalOrder } })
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 120_000)
})
