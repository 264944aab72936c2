import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestReport as SuiteReport } from '../../../harness/report/test-report.ts'
import { runCli } from '../../support/cli.ts'
import { SUITE_APP, SUITE_APP_COMMAND } from '../../support/suite-app.ts'

/**
 * Tests with the same sides share their reruns (harness/suite/shared-reruns.ts).
 * The fixture (test/fixtures/suite-app/shared-tests) has two tests that read
 * one boot of the tied configuration and pin alpha first (they pass and fail
 * in the same runs, under the same realised order), and one that pins beta
 * first on its own boot. Expected from that definition: the first two are
 * `pins-one` on the alpha–beta tie, their sides confirmed on the same reruns;
 * the first's bisection runs it alone, and the twin, instead of a bisection
 * of its own, is run at the two orders of the first's blamed swap (at most
 * two reruns) and takes that blame; the third is decided on reruns of its own.
 */

const COMMAND = SUITE_APP_COMMAND.map(arg => arg === 'vitest.config.mjs' ? 'vitest.shared.config.mjs' : arg)
const FIRST = 'shared-tests/shared.test.mjs › the same sides puts alpha first'
const TWIN = 'shared-tests/shared.test.mjs › the same sides puts beta second'
const OTHER = 'shared-tests/shared.test.mjs › the other side puts beta first'

describe('tests with the same sides', () => {
  it('are decided on shared reruns: the twin confirms its sides on its first\'s runs, checks its first\'s blamed swap in two runs at most, and takes that blame', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'loadrace-shared-'))
    try {
      const run = await runCli(['test', '--report', folder, '--', ...COMMAND], { cwd: SUITE_APP })
      expect(run.code, run.stderr).toBe(1)
      const reruns = run.stderr.split('\n').filter(line => /^loadrace test: rerun \d+ alone/.test(line))
      const of = (test: string) => reruns.filter(line => line.includes(`: ${test}: `))
      expect(of(TWIN).length).toBeLessThanOrEqual(2)
      for (const line of of(TWIN)) expect(line).toContain('narrowing to the swap')
      const confirming = of(FIRST).filter(line => / side \(/.test(line))
      expect(confirming.length).toBeGreaterThanOrEqual(4)
      for (const line of confirming) expect(line).toContain('alone, with 1 more test of the same sides:')
      expect(of(FIRST).filter(line => line.includes('narrowing') && !line.includes('of the same sides')).length).toBeGreaterThan(0)
      expect(of(OTHER).length).toBeGreaterThanOrEqual(4)
      for (const line of of(OTHER)) expect(line).not.toContain('of the same sides')

      const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as SuiteReport
      expect(report.summary.reruns).toBe(reruns.length)
      const finding = (name: string) => report.tests.find(test => `${test.file} › ${test.name}` === name)!
      for (const name of [FIRST, TWIN, OTHER]) expect(finding(name).verdict, name).toBe('pins-one')
      const [first, twin] = [finding(FIRST).pinsOne!, finding(TWIN).pinsOne!]
      expect(twin.passing).toEqual(first.passing)
      expect(twin.failing).toEqual(first.failing)
      expect(first.blame?.after).toBeUndefined()
      expect(twin.blame).toEqual({ ...first.blame, runs: twin.blame!.runs, after: FIRST })
      expect(new Set(first.blame?.plugins)).toEqual(new Set(['alpha', 'beta']))
      expect(new Set(finding(OTHER).pinsOne?.blame?.plugins)).toEqual(new Set(['alpha', 'beta']))
      expect(run.stdout).toContain(`as for ${FIRST}, whose swap flips this test too`)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 180_000)
})
