import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BootRecord } from '../../../harness/preload/protocol.js'
import type { TestReport } from '../../../harness/report/test-report.ts'
import { runCli, type CliRun } from '../../support/cli.ts'
import { VITEST_BOOTS, VITEST_BOOTS_COMMAND } from '../../support/vitest-boots.ts'

/**
 * `loadrace test` over a vitest suite whose tests boot cordis compositions
 * inside vitest's own workers (test/fixtures/vitest-boots): from cordis.yml
 * files written into fresh temporary folders (one with a free port in it),
 * two boots in one test, one in a `beforeAll`, one under fake timers, one
 * of entries on the root loader with an overridden `loader.internal.import`;
 * in three projects: `forks` (isolated, inline with `extends: true`),
 * `threads` (not isolated, given as a file), and `built` (the published
 * build, which vitest leaves to Node). What each test must be follows from
 * the fixture: `names` keeps registration order, and two tests pin one side
 * of it (alpha before beta, gamma before beta); every other test sorts.
 * With FIXTURE_TIE=broken `names` sorts too, so every test holds.
 */

/** The boots the fixture's tests make, by the test (or suite) that makes them: from its definition. */
const BOOTS: Record<string, number> = {
  'tests/forks/tie.test.ts › the planted tie pins alpha before beta': 1,
  'tests/forks/two-boots.test.ts › boots two compositions in one test, each whole whatever its order': 2,
  'tests/forks/hooks.test.ts › a composition booted in beforeAll': 1,
  'tests/forks/hooks.test.ts › boots under fake timers': 1,
  'tests/threads/tie.test.ts › pins gamma before beta': 1,
  'tests/threads/entries.test.ts › boots entries on the root loader, modules from an overridden internal import': 1,
  'tests/built/built.test.ts › boots the published build twice in one test': 2,
}
/** The fixture's tests: those that boot, and the one whose suite boots for it. */
const TESTS = [...Object.keys(BOOTS).filter(key => !key.endsWith('booted in beforeAll')), 'tests/forks/hooks.test.ts › a composition booted in beforeAll holds every name']
const PINNED = ['tests/forks/tie.test.ts › the planted tie pins alpha before beta', 'tests/threads/tie.test.ts › pins gamma before beta']

interface Ran { folder: string, run: CliRun, report: TestReport }

async function loadraceTest(env: Record<string, string> = {}): Promise<Ran> {
  const folder = mkdtempSync(join(tmpdir(), 'loadrace-vitest-boots-'))
  const run = await runCli(['test', '--report', folder, '--', ...VITEST_BOOTS_COMMAND], { cwd: VITEST_BOOTS, env })
  return { folder, run, report: JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as TestReport }
}

/** The boot records a run of the command wrote. */
function bootsOf(ran: Ran, run: string): BootRecord[] {
  const folder = join(ran.folder, 'runs', run, 'processes')
  return readdirSync(folder).filter(name => name.startsWith('boot-')).map(name => JSON.parse(readFileSync(join(folder, name), 'utf8')) as BootRecord)
}

const keyOf = (test: { file: string, name: string }) => `${test.file} › ${test.name}`

describe('loadrace test reaches compositions booted inside vitest\'s own workers', () => {
  let planted: Ran
  let broken: Ran

  beforeAll(async () => {
    planted = await loadraceTest()
    broken = await loadraceTest({ FIXTURE_TIE: 'broken' })
  }, 300_000)

  afterAll(() => {
    for (const ran of [planted, broken]) if (ran !== undefined) rmSync(ran.folder, { recursive: true, force: true })
  })

  it('pins both planted ties, each blamed on its two plugins, and holds every other test; none flaky', () => {
    expect(planted.run.code, planted.run.stderr).toBe(1)
    const verdicts = Object.fromEntries(planted.report.tests.map(test => [keyOf(test), test.verdict]))
    expect(verdicts).toEqual(Object.fromEntries(TESTS.map(key => [key, PINNED.includes(key) ? 'pins-one' : 'holds'])))
    const blame = (key: string) => planted.report.tests.find(test => keyOf(test) === key)!.pinsOne!.blame!
    expect(new Set(blame(PINNED[0]!).plugins)).toEqual(new Set(['cordis.include.alpha', 'cordis.include.beta']))
    expect(blame(PINNED[0]!).configuration).toMatch(/^tests\/forks\/tie\.test\.ts › cordis\.yml#[0-9a-f]{8}$/)
    expect(new Set(blame(PINNED[1]!).plugins)).toEqual(new Set(['cordis.include.gamma', 'cordis.include.beta']))
    expect(blame(PINNED[1]!).configuration).toMatch(/^tests\/threads\/tie\.test\.ts › cordis\.yml#[0-9a-f]{8}$/)
  })

  it('holds every test once the tie is broken, with no rerun', () => {
    expect(broken.run.code, broken.run.stderr).toBe(0)
    expect(broken.report.tests.map(test => test.verdict)).toEqual(broken.report.tests.map(() => 'holds'))
    expect(broken.report.summary.reruns).toBe(0)
  })

  it('records one boot per composition, each with the test (or suite) that booted it, the same configuration in every run whatever its folder or port', () => {
    for (const run of ['natural', 'schedule-1']) {
      const boots = bootsOf(planted, run)
      const counted: Record<string, number> = {}
      for (const boot of boots) {
        expect(boot.test, JSON.stringify(boot)).toBeDefined()
        const key = `${boot.test!.file} › ${boot.test!.name}`
        counted[key] = (counted[key] ?? 0) + 1
      }
      expect(counted).toEqual(BOOTS)
      expect(boots.find(boot => boot.test!.kind === 'suite')?.test?.name).toBe('a composition booted in beforeAll')
      expect(boots.filter(boot => boot.unknown)).toEqual([])
    }
    const names = (run: string) => bootsOf(planted, run).map(boot => boot.configuration).sort()
    expect(names('schedule-1')).toEqual(names('natural'))
    expect(bootsOf(planted, 'schedule-1').every(boot => boot.row !== undefined)).toBe(true)
  })

  it('states its reach: every boot of the plan\'s runs followed a row, and every project was reached', () => {
    expect(planted.report.reach).toMatchObject({ boots: 9, controlled: 9, tests: 7, uncontrolled: [] })
    expect(planted.report.reach?.projects?.map(project => [project.project, project.reached])).toEqual([['forks', true], ['./vitest.threads.config.ts', true], ['built', true]])
    expect(planted.run.stderr + planted.run.stdout).toContain('reach: 9 of 9 loader boots in the plan\'s runs followed a row, in 7 tests')
  })

  it('a printed replay reruns its test alone under the failing order, and it fails', async () => {
    const replay = planted.report.tests.find(test => keyOf(test) === PINNED[0])!.replay!
    const [, order, only] = /--order '([^']+)' --only '([^']+)'/.exec(replay)!
    const folder = mkdtempSync(join(tmpdir(), 'loadrace-vitest-replay-'))
    try {
      const run = await runCli(['test', '--report', folder, '--order', order!, '--only', only!, '--', ...VITEST_BOOTS_COMMAND], { cwd: VITEST_BOOTS })
      expect(run.code, run.stderr).toBe(1)
      const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as TestReport
      expect(report.tests.map(test => [keyOf(test), test.verdict])).toEqual([[PINNED[0], 'fails']])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 120_000)
})

