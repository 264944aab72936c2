import { describe, expect, it } from 'vitest'
import type { TestReport } from '../../../harness/report/test-report.ts'
import { mergeSuiteShards, SuiteMergeError } from '../../../harness/suite/merge.ts'
import { planConfigurations, rowCount } from '../../../harness/suite/plan.ts'

/**
 * Merging a sharded test run plans its configurations again from the
 * shards' own options — the settings as they resolved them — so the merge
 * plans exactly what one unsharded run with those settings plans.
 */

const entries = ['a', 'b', 'c', 'd', 'e']
const natural = { configuration: 'configs/app.cordis.yml', requested: entries.map(label => ({ label, enabledAt: 0 })), released: entries }

/** A shard's report of `--strategy pct --depth 2 --budget 200 --shard i/2`: its natural run only (no schedule fell to it in this sketch). */
function shard(index: number, options: Partial<TestReport['options']> = {}): { dir: string, report: TestReport } {
  return {
    dir: `shard-${index}`,
    report: {
      tool: 'loadrace', report: 'test', version: '0.1.0', complete: true,
      options: { strategy: 'pct', budget: 200, seed: '0', depth: 2, strength: null, shard: `${index}/2`, reruns: 2, jobs: 1, junit: null, ...options },
      command: ['npx', 'vitest', 'run'], cwd: '/project', configurations: [], tests: [],
      runs: [{ name: 'natural', exitCode: 0, durationMs: 1, rows: {}, log: 'runs/natural/output.log', processes: [natural] }],
      processNotes: [],
      summary: { tests: 0, 'pins-one': 0, flaky: 0, fails: 0, holds: 0, skipped: 0, runs: 1, reruns: 0, durationMs: 1 },
    },
  }
}

describe('merging the shards of a test run', () => {
  it('plans each configuration with every option the shards resolved (a pct plan keeps its depth), as an unsharded run plans it', () => {
    const merged = mergeSuiteShards([shard(2), shard(1)])
    const unsharded = planConfigurations([natural], { strategy: 'pct', budget: 200, seed: '0', depth: 2 })
    expect(merged.configurations.map(c => c.rows)).toEqual(unsharded.map(rowCount))
    // At depth 2 PCT reaches every one of the 120 orders; at its default depth 3 it draws 119 distinct ones: the depth is what was planned with.
    expect(merged.configurations[0]!.rows).toBe(120)
    expect(planConfigurations([natural], { strategy: 'pct', budget: 200, seed: '0', countsNatural: false }).map(rowCount)).toEqual([119])
    expect(merged.options).toMatchObject({ strategy: 'pct', depth: 2, shard: null })
    expect(merged).toMatchObject({ tool: 'loadrace', report: 'test', complete: true })
  })

  it('refuses shards planned differently, naming the option', () => {
    expect(() => mergeSuiteShards([shard(1), shard(2, { depth: 3 })])).toThrow(new SuiteMergeError('shard-1 and shard-2 differ in depth: shards of one run share strategy, budget, seed, depth, strength and reruns'))
  })

  it('adds the shards\' boots together, keeps the most tests one shard reached, and every why', () => {
    const withReach = (index: number, reach: TestReport['reach']) => { const made = shard(index); return { ...made, report: { ...made.report, reach } } }
    const merged = mergeSuiteShards([
      withReach(1, { boots: 4, controlled: 3, tests: 2, uncontrolled: [{ why: 'unknown', boots: 1 }] }),
      withReach(2, { boots: 5, controlled: 5, tests: 3, uncontrolled: [], ambiguous: 2 }),
    ])
    expect(merged.reach).toEqual({ boots: 9, controlled: 8, tests: 3, uncontrolled: [{ why: 'unknown', boots: 1 }], ambiguous: 2 })
    expect(mergeSuiteShards([shard(1), shard(2)]).reach).toBeUndefined()
  })
})
