import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestReport as SuiteReport } from '../../../harness/report/test-report.ts'
import { inOrder } from '../../../harness/suite/jobs.ts'
import { runCli } from '../../support/cli.ts'
import { SUITE_APP, SUITE_APP_COMMAND } from '../../support/suite-app.ts'

/** Work that takes a few event-loop turns and counts how many are in progress at once. */
function counting() {
  let now = 0
  let most = 0
  const started: number[] = []
  return {
    get most() { return most },
    started,
    async work(item: number): Promise<string> {
      started.push(item)
      now++
      most = Math.max(most, now)
      // Later items end sooner, so the results come back out of order.
      await new Promise(resolve => setTimeout(resolve, 5 * (10 - item)))
      now--
      if (item === 3) throw new Error(`item ${item} failed`)
      return `r${item}`
    },
  }
}

describe('deciding tests side by side (--jobs)', () => {
  it('runs at most `jobs` at once and gives the results in the items\' order', async () => {
    const two = counting()
    expect(await inOrder([0, 1, 2], 2, item => two.work(item))).toEqual(['r0', 'r1', 'r2'])
    expect(two.most).toBe(2)
    const one = counting()
    expect(await inOrder([0, 1, 2], 1, item => one.work(item))).toEqual(['r0', 'r1', 'r2'])
    expect(one.most).toBe(1)
  })

  it('after a failure starts nothing more, and throws only once every started item has ended', async () => {
    const jobs = counting()
    let ended = 0
    const failing = inOrder([2, 3, 4, 5, 6], 2, async (item) => {
      try {
        return await jobs.work(item)
      } finally {
        ended++
      }
    })
    await expect(failing).rejects.toThrow('item 3 failed')
    // 2 and 3 start together; 3 fails first (it waits less), 2 ends after it, and nothing else starts.
    expect(jobs.started).toEqual([2, 3])
    expect(ended).toBe(2)
  })

  it('refuses --jobs with --junit (two reruns would write its one file), and a count out of range, exit 2', async () => {
    const withJunit = await runCli(['test', '--jobs', '2', '--junit', 'out.xml', '--', 'node', '--test'], { cwd: SUITE_APP })
    expect(withJunit.code).toBe(2)
    expect(withJunit.stderr).toMatch(/--jobs 2: not with --junit/)
    const zero = await runCli(['test', '--jobs', '0', '--', 'node', '--test'], { cwd: SUITE_APP })
    expect(zero.code).toBe(2)
    expect(zero.stderr).toMatch(/--jobs/)
  })

  it('gives the verdicts and blames of one job, two pinned tests decided side by side', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'loadrace-jobs-'))
    try {
      const run = await runCli(['test', '--jobs', '2', '--report', folder, '--', ...SUITE_APP_COMMAND, '-t', 'pins (alpha before beta|beta before alpha)'], { cwd: SUITE_APP })
      expect(run.code, run.stderr).toBe(1)
      const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as SuiteReport
      const pinned = report.tests.filter(test => test.verdict !== 'skipped')
      // The tie between alpha and beta (tie.cordis.yml gives both order 10): each test pins one side of it.
      expect(pinned.map(test => test.name)).toEqual(['the tied configuration pins alpha before beta', 'the tied configuration pins beta before alpha'])
      for (const test of pinned) {
        expect(test.verdict).toBe('pins-one')
        expect(new Set(test.pinsOne?.blame?.entries)).toEqual(new Set(['alpha', 'beta']))
      }
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 180_000)
})
