import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Reporter } from '../../../harness/report/reporter.ts'
import type { TestReport } from '../../../harness/report/test-report.ts'
import { resolveSettings } from '../../../harness/settings/resolve.ts'
import { testCommand } from '../../../harness/suite/command-line.ts'
import { runTestMode } from '../../../harness/suite/test-mode.ts'
import { runCli, startCli } from '../../support/cli.ts'
import { SUITE_APP } from '../../support/suite-app.ts'

/**
 * `loadrace test` as a whole command, on the fixture application's Node
 * test-runner suites (test/fixtures/suite-app): its reports replace the
 * report folder whole, an interrupted run says so everywhere, and test mode
 * tells any reporter of the shared map as it goes. What each test must be
 * follows from the fixture: alpha and beta share order 10, so `alpha comes
 * before beta` pins one side of the load-order race, and `every tool is
 * there` holds under every order.
 */

const NODE_TESTS = ['node', '--test', 'node-tests/tie.test.mjs']
const SLOW_TESTS = ['node', '--test', fileURLToPath(new URL('../../fixtures/suite-app/slow-tests/slow.test.mjs', import.meta.url))]

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-test-mode-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as TestReport

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(entry => entry.isFile()).map(entry => join(entry.parentPath, entry.name).slice(dir.length + 1)).sort()
}

describe('a test run replaces its report folder whole', () => {
  it('after a full run, a run that judged nothing leaves no file of the full run, and its report says nothing was judged', async () => {
    const report = join(folder, 'report')
    expect((await runCli(['test', '--report', report, '--', ...NODE_TESTS], { cwd: SUITE_APP })).code).toBe(1)
    const full = filesUnder(report)
    expect(full).toContain('runs/schedule-1/output.log')
    expect(read(report).summary['pins-one']).toBe(1)

    const unjudged = await runCli(['test', '--report', report, '--', process.execPath, '-e', 'process.exit(0)'], { cwd: folder })
    expect(unjudged.code).toBe(4)
    const after = filesUnder(report)
    expect(after.filter(file => full.includes(file) && file.startsWith('runs/schedule-'))).toEqual([])
    expect(after.filter(file => file.startsWith('runs/')).every(file => file.startsWith('runs/natural/'))).toBe(true)
    const said = read(report)
    expect(said).toMatchObject({ tool: 'loadrace', report: 'test', complete: true, tests: [], summary: { tests: 0, 'pins-one': 0 } })
    expect(said.unjudged).toMatch(/no process the command started \(nor a test in a vitest worker\) booted a cordis loader/)
    expect(readFileSync(join(report, 'report.md'), 'utf8')).toMatch(/nothing judged: no process/)
    // Nothing is left beside the report folder either: no staging folder, no folder moved aside.
    expect(readdirSync(folder)).toEqual(['report'])
  }, 120_000)

  it('after a full run, a replay leaves a report of the replay alone, its log where the report says', async () => {
    const report = join(folder, 'report')
    await runCli(['test', '--report', report, '--', ...NODE_TESTS], { cwd: SUITE_APP })
    const pinned = read(report).tests.find(test => test.verdict === 'pins-one')!
    const order = pinned.pinsOne!.blame!.failing
    const replay = await runCli(['test', '--report', report, '--order', `${pinned.pinsOne!.blame!.configuration}=${order.join(',')}`, '--only', pinned.name, '--', ...NODE_TESTS], { cwd: SUITE_APP })
    expect(replay.code).toBe(1)
    const said = read(report)
    expect(said.replay).toEqual({ orders: { [pinned.pinsOne!.blame!.configuration]: order }, only: pinned.name })
    expect(said.tests.map(test => [test.name, test.verdict])).toEqual([[pinned.name, 'fails']])
    expect(said.runs.map(run => run.name)).toEqual(['replay'])
    expect(filesUnder(report).filter(file => file.startsWith('runs/') && !file.startsWith('runs/replay/'))).toEqual([])
    expect(existsSync(join(report, said.runs[0]!.log))).toBe(true)
    expect(replay.stdout).toContain(`✗ fails  ${pinned.file} › ${pinned.name}`)
  }, 120_000)
})

describe('an interrupted test run', () => {
  it('SIGINT in the middle of a schedule: exit 130, complete false, the run it stopped in named, and no verdict the unfinished row could change given as final', async () => {
    const report = join(folder, 'report')
    const marker = join(folder, 'slow-started')
    const run = startCli(['test', '--report', report, '--', ...SLOW_TESTS], { cwd: SUITE_APP, env: { SLOW_RUN: 'schedule-1', SLOW_MARKER: marker } })
    for (let waited = 0; !existsSync(marker) && waited < 60_000; waited += 50) await new Promise(resolve => setTimeout(resolve, 50))
    expect(existsSync(marker)).toBe(true)
    run.child.kill('SIGINT')
    const done = await run.done
    expect(done.code).toBe(130)
    const said = read(report)
    expect(said.complete).toBe(false)
    // Every schedule of the plan from the one interrupted on never ran (the natural run's processes may have disagreed on an order, making two).
    expect(said.interrupted?.during).toBe('schedule-1')
    expect(said.interrupted?.neverRan[0]).toBe('schedule-1')
    const never = said.interrupted!.neverRan.join(', ')
    // Only the natural run gave results; both tests passed there, and the row never run could still fail either.
    expect(said.runs.map(run => run.name)).toEqual(['natural'])
    for (const test of said.tests) {
      expect(test.verdict, test.name).toBe('holds')
      expect(test.partial, test.name).toBe(`${never} never ran, and could change it`)
    }
    expect(done.stdout).not.toMatch(/^✓ holds/m)
    expect(done.stdout).toMatch(/^\? holds \(partial\)  .*alpha comes before beta$/m)
    expect(done.stdout).toContain(`INCOMPLETE (interrupted during schedule-1; ${never} never ran)`)
    expect(readFileSync(join(report, 'junit.xml'), 'utf8')).toContain(`partial: ${never} never ran`)
  }, 120_000)
})

describe('test mode in the shared reporter pipeline', () => {
  it('tells a reporter added from outside every run, rerun alone and verdict, and ends it with the report', async () => {
    const events: string[] = []
    let ended: TestReport | undefined
    const listener: Reporter<TestReport> = {
      onRunStart: run => events.push(`start ${run.name}`),
      onRunEnd: run => events.push(`end ${run.name} ${run.tests}`),
      onRerun: rerun => events.push(`rerun ${rerun.purpose}`),
      onTestJudged: finding => events.push(`judged ${finding.name} ${finding.verdict}`),
      onEnd: (report) => { ended = report },
    }
    const settings = { ...resolveSettings({ command: 'test', env: {} }), report: join(folder, 'report') }
    const result = await runTestMode({ command: testCommand(NODE_TESTS), settings, cwd: SUITE_APP, env: process.env, reporters: [listener] })
    expect(events.slice(0, 4)).toEqual(['start natural', 'end natural 2', 'start schedule-1', 'end schedule-1 2'])
    expect(events).toContain('rerun passing')
    expect(events).toContain('rerun failing')
    expect(events.filter(event => event.startsWith('judged'))).toEqual(['judged alpha comes before beta pins-one', 'judged every tool is there holds'])
    expect(ended).toBe(result.report)
    // It wrote no file of its own: the folder holds the runs alone.
    expect(readdirSync(join(folder, 'report'))).toEqual(['runs'])
  }, 120_000)

  it('writes the formats --format names, report.json on stdout with --reporter json, a GitHub annotation and the job summary for a pins-one', async () => {
    const report = join(folder, 'report')
    const summary = join(folder, 'summary.md')
    writeFileSync(summary, '')
    const run = await runCli(['test', '--format', 'json,md', '--reporter', 'json', '--report', report, '--', ...NODE_TESTS], {
      cwd: SUITE_APP, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    })
    expect(run.code).toBe(1)
    expect(readdirSync(report).sort()).toEqual(['report.json', 'report.md', 'runs'])
    // Progress goes to stderr as each rerun alone starts: which test, which side, how many.
    expect(run.stderr).toMatch(/^loadrace test: rerun 1 alone: test › alpha comes before beta: its passing side \(natural\), 1 of 2$/m)
    const printed = JSON.parse(run.stdout) as TestReport
    expect(printed).toEqual(read(report))
    // Node's JUnit reporter names no file (its classname is `test`): the annotation is the run's, not a file's.
    expect(run.stderr).toMatch(/^::error title=loadrace%3A alpha comes before beta is pins-one::blame: alpha ↔ beta in configs\/tie\.cordis\.yml/m)
    expect(readFileSync(summary, 'utf8')).toMatch(/^# loadrace test\n[\s\S]*### pins-one: `test › alpha comes before beta`/)
  }, 120_000)
})

describe('a report folder that cannot be written', () => {
  it('is refused before the command runs, leaving nothing behind', async () => {
    const blocked = join(folder, 'blocked')
    mkdirSync(blocked)
    writeFileSync(join(blocked, 'parent'), 'a file, not a folder')
    const run = await runCli(['test', '--report', join(blocked, 'parent', 'report'), '--', ...NODE_TESTS], { cwd: SUITE_APP })
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(readdirSync(blocked)).toEqual(['parent'])
  }, 60_000)
})
