import { describe, expect, it } from 'vitest'
import { narrow, type Precedent } from '../../../harness/suite/blame.ts'
import type { CommandRun } from '../../../harness/suite/command-run.ts'
import type { RerunPurpose, RunsAlone } from '../../../harness/suite/rerunner.ts'
import type { TestResult } from '../../../harness/suite/results.ts'
import type { Orders, PinnedSide } from '../../../harness/verdict/test-verdict.ts'

/**
 * Narrowing a pinned test to the swap of loader entries that flips it
 * (harness/suite/blame.ts), with a test whose result is written from its
 * definition: it passes while `a` loads before `b`, on one configuration.
 * The runs record no applies, so no plugins are named: this is about the
 * swap, and about taking an earlier test's blame only where it is true.
 */

const CONFIGURATION = 'cordis.yml'
const TEST: TestResult = { file: 'tied.test.mjs', name: 'pins a first', status: 'failed' } as TestResult
const PASSING = ['a', 'b', 'c', 'd', 'e', 'f']
const FAILING = ['f', 'e', 'd', 'c', 'b', 'a']

/** Runs alone, by the definition: passes iff a loads before b; every ask recorded. */
function rerunner(): RunsAlone & { asks: { order: string[], why: RerunPurpose }[] } {
  const asks: { order: string[], why: RerunPurpose }[] = []
  return {
    asks,
    async alone(_test, _mode, rows: Orders, why) {
      const order = [...rows[CONFIGURATION]!]
      asks.push({ order, why })
      const run = { name: `rerun-${asks.length}`, exitCode: 0, signal: null, results: [], processes: [], log: '', durationMs: 0 } as unknown as CommandRun
      return { status: order.indexOf('a') < order.indexOf('b') ? 'passed' : 'failed', run }
    },
  }
}

const side = (run: string, status: 'passed' | 'failed', order: string[]): PinnedSide => ({ run, status, orders: { [CONFIGURATION]: order } })
const narrowed = (runs: RunsAlone, precedents: Precedent[] = []) =>
  narrow(TEST, side('natural', 'passed', PASSING), side('schedule-1', 'failed', FAILING), new Map(), runs, '', precedents)

/** A precedent whose blame swaps `x` and `y` (adjacent in `order`, x first). */
function precedentSwapping(x: string, y: string, order: string[]): Precedent {
  const swapped = order.map(entry => entry === x ? y : entry === y ? x : entry)
  return { test: 'tied.test.mjs › an earlier test', blame: { configuration: CONFIGURATION, entries: [x, y], passing: order, failing: swapped, runs: 9 } }
}

describe('narrowing a pinned test', () => {
  it('blames the adjacent swap of a and b, each step of its bisection run as its own', async () => {
    const runs = rerunner()
    const { blame } = await narrowed(runs)
    expect(blame?.entries).toEqual(['a', 'b'])
    expect(blame?.after).toBeUndefined()
    expect(blame?.failing.indexOf('b')).toBe(blame!.passing.indexOf('a'))
    // The check of the configuration in its failing order is shared; the bisection's steps are not.
    expect(runs.asks[0]!.why.own).toBe(false)
    expect(runs.asks.slice(1).length).toBeGreaterThan(0)
    for (const ask of runs.asks.slice(1)) expect(ask.why.own).toBe(true)
  })

  it('takes an earlier test\'s blame when that swap flips it too: two runs at its orders, no bisection', async () => {
    const runs = rerunner()
    const precedent = precedentSwapping('a', 'b', ['c', 'a', 'b', 'd', 'e', 'f'])
    const { blame } = await narrowed(runs, [precedent])
    expect(blame).toEqual({ ...precedent.blame, runs: 3, after: precedent.test })
    expect(runs.asks.map(ask => ask.order)).toEqual([FAILING, precedent.blame.passing, precedent.blame.failing])
    for (const ask of runs.asks) expect(ask.why.own).toBe(false)
  })

  it('does not take an earlier test\'s blame whose swap does not flip it, and finds its own', async () => {
    const runs = rerunner()
    const precedent = precedentSwapping('c', 'd', ['a', 'b', 'c', 'd', 'e', 'f'])
    const { blame } = await narrowed(runs, [precedent])
    expect(blame?.entries).toEqual(['a', 'b'])
    expect(blame?.after).toBeUndefined()
    expect(runs.asks.map(ask => ask.order)).toContainEqual(precedent.blame.failing)
  })
})
