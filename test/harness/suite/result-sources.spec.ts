import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestReport as SuiteReport } from '../../../harness/report/test-report.ts'
import { runCli } from '../../support/cli.ts'
import { SUITE_APP } from '../../support/suite-app.ts'

/**
 * Per-test results from other suites than vitest: `node --test` (loadrace
 * adds a JUnit reporter), a JUnit file the command writes itself
 * (`--junit`), and a command with no per-test results (its exit code). The
 * fixture's tie (alpha and beta share an order, test/fixtures/suite-app)
 * makes the first test pin one side whatever reads its result.
 */

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-sources-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

const read = () => JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as SuiteReport
const verdictOf = (report: SuiteReport, name: string) => report.tests.find(test => test.name === name)?.verdict

describe('loadrace test reads each kind of suite', () => {
  it('node --test, through the JUnit reporter it adds; a rerun alone by name', async () => {
    const run = await runCli(['test', '--report', folder, '--', process.execPath, '--test', 'node-tests/'], { cwd: SUITE_APP })
    expect(run.code, run.stderr).toBe(1)
    const report = read()
    expect(verdictOf(report, 'alpha comes before beta')).toBe('pins-one')
    expect(verdictOf(report, 'every tool is there')).toBe('holds')
    expect(report.tests.find(test => test.name === 'alpha comes before beta')?.pinsOne?.blame?.entries).toEqual(expect.arrayContaining(['alpha', 'beta']))
  }, 120_000)

  it('a JUnit file the command writes (--junit)', async () => {
    const out = join(folder, 'junit-of-the-suite.xml')
    const run = await runCli(['test', '--junit', out, '--report', join(folder, 'r'), '--', process.execPath, '--test', '--test-reporter=junit', `--test-reporter-destination=${out}`, 'node-tests/'], { cwd: SUITE_APP })
    expect(run.code, run.stderr).toBe(1)
    const report = JSON.parse(readFileSync(join(folder, 'r', 'report.json'), 'utf8')) as SuiteReport
    expect(verdictOf(report, 'alpha comes before beta')).toBe('pins-one')
    expect(verdictOf(report, 'every tool is there')).toBe('holds')
  }, 120_000)

  it('a command without per-test results is one test, judged by its exit code', async () => {
    const run = await runCli(['test', '--report', folder, '--', process.execPath, 'app.mjs', 'configs/broken.cordis.yml'], { cwd: SUITE_APP })
    expect(run.code, run.stderr).toBe(0)
    expect(read().tests).toEqual([expect.objectContaining({ name: `${process.execPath} app.mjs configs/broken.cordis.yml`, verdict: 'holds' })])
  }, 120_000)
})
