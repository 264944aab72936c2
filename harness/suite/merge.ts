import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { formatShard, type Shard } from '../settings/shard.ts'
import { formatGuarantee, STRATEGY_NAMES } from '../strategies/index.ts'
import { planConfigurations, planRows, realisedGuarantee } from './plan.ts'
import { testKey } from './results.ts'
import type { SuiteReport } from './report.ts'
import { TEST_VERDICTS, verdictOfResults, type RunStatus, type TestFinding, type TestVerdict } from './verdict.ts'

/**
 * One report from the reports of the shards of one `loadrace test` run
 * (`--shard i/n`). Every shard ran the reference run and its own schedules;
 * the merge unites the schedules, keeps each shard's reruns alone (a test a
 * shard found pinned or flaky stays so, with its blame), and judges every
 * other test on all the runs together. A test whose results differ only
 * across shards had no shard to rerun it: it is `pins-one` with its two sides
 * named and no pair blamed, and says so.
 */

/** Why shard reports cannot be merged: one line each. */
export class SuiteMergeError extends Error {
  override readonly name = 'SuiteMergeError'
}

function shardOf(dir: string, report: SuiteReport): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(report.options.shard ?? '')
  if (!match) throw new SuiteMergeError(`${dir}: not a shard (its report.json has no options.shard; run loadrace test --shard i/n)`)
  return { index: Number(match[1]), count: Number(match[2]) }
}

/** Merges the reports of every shard of one run; each must be given once. */
export function mergeSuiteShards(shards: readonly { dir: string, report: SuiteReport }[]): SuiteReport {
  const indexed = shards.map(shard => ({ ...shard, shard: shardOf(shard.dir, shard.report) })).sort((a, b) => a.shard.index - b.shard.index)
  const first = indexed[0]!
  for (const other of indexed.slice(1)) {
    for (const key of ['strategy', 'budget', 'seed', 'strength', 'reruns'] as const) {
      if (other.report.options[key] !== first.report.options[key]) throw new SuiteMergeError(`${first.dir} and ${other.dir} differ in ${key}: shards of one run share strategy, budget, seed, strength and reruns`)
    }
    if (JSON.stringify(other.report.command) !== JSON.stringify(first.report.command) || other.report.cwd !== first.report.cwd) {
      throw new SuiteMergeError(`${first.dir} and ${other.dir} ran different commands or in different folders`)
    }
    if (other.shard.count !== first.shard.count) throw new SuiteMergeError(`${first.dir} is a shard of ${first.shard.count} but ${other.dir} is a shard of ${other.shard.count}`)
  }
  for (let index = 1; index <= first.shard.count; index++) {
    const holders = indexed.filter(shard => shard.shard.index === index)
    if (holders.length !== 1) throw new SuiteMergeError(`shard ${formatShard({ index, count: first.shard.count })} is ${holders.length === 0 ? 'missing' : `given ${holders.length} times`}; give the report of every shard exactly once`)
  }
  const reference = first.report.runs[0]!
  const schedules = indexed.flatMap(shard => shard.report.runs.slice(1))
    .sort((a, b) => Number(a.name.split('-')[1]) - Number(b.name.split('-')[1]))
  const runs = [reference, ...schedules]
  const found = new Map<string, TestFinding>()
  for (const shard of indexed) {
    for (const test of shard.report.tests) {
      if (test.verdict !== 'pins-one' && test.verdict !== 'flaky') continue
      const known = found.get(testKey(test))
      if (known === undefined || (known.verdict === 'pins-one' && test.verdict === 'flaky')) found.set(testKey(test), test)
    }
  }
  const statuses = new Map<string, Map<string, RunStatus>>()
  const names = new Map<string, { file: string, name: string, message?: string }>()
  for (const shard of indexed) {
    for (const test of shard.report.tests) {
      const key = testKey(test)
      if (!names.has(key) || (names.get(key)!.message === undefined && test.message !== undefined)) names.set(key, { file: test.file, name: test.name, ...test.message === undefined ? {} : { message: test.message } })
      let byRun = statuses.get(key)
      if (!byRun) statuses.set(key, byRun = new Map())
      for (const result of test.results) if (!byRun.has(result.run) || result.status !== 'missing') byRun.set(result.run, result.status)
    }
  }
  const tests = [...names].map(([key, test]): TestFinding => {
    const byRun = statuses.get(key)!
    const results = runs.map(run => ({ run: run.name, status: byRun.get(run.name) ?? 'missing' as const }))
    const shardFinding = found.get(key)
    if (shardFinding) return { ...shardFinding, results }
    const verdict = verdictOfResults(results.map(result => result.status))
    if (verdict !== undefined) return { ...test, verdict, results }
    const passing = results.find(result => result.status === 'passed')!.run
    const failing = results.find(result => result.status === 'failed')!.run
    const ordersOf = (name: string) => runs.find(run => run.name === name)!.rows
    return {
      ...test,
      verdict: 'pins-one',
      results,
      pinsOne: {
        passing: { run: passing, status: 'passed', orders: ordersOf(passing) },
        failing: { run: failing, status: 'failed', orders: ordersOf(failing) },
        unblamed: 'its two sides fell in different shards, so no shard reran it alone: not yet confirmed by a rerun, nor narrowed to a pair; run loadrace test unsharded to confirm and blame it',
        naturalOrderFails: failing === 'reference',
      },
    }
  })
  const strategy = STRATEGY_NAMES.find(name => name === first.report.options.strategy) ?? 'cover'
  const plans = planConfigurations(reference.processes, { ...first.report.options, strategy, countsReference: false })
  const records = indexed.flatMap(shard => shard.report.runs[0]!.processes).concat(schedules.flatMap(run => run.processes))
  const counts = Object.fromEntries(TEST_VERDICTS.map(verdict => [verdict, tests.filter(test => test.verdict === verdict).length])) as Record<TestVerdict, number>
  const { shard: _shard, ...options } = first.report.options
  return {
    ...first.report,
    options,
    summary: {
      tests: tests.length,
      ...counts,
      runs: runs.length,
      reruns: indexed.reduce((total, shard) => total + shard.report.summary.reruns, 0),
      durationMs: indexed.reduce((total, shard) => total + shard.report.summary.durationMs, 0),
    },
    configurations: plans.map(plan => ({
      configuration: plan.configuration,
      entries: plan.entries,
      rows: planRows(plan),
      fromReference: plan.reference !== undefined,
      processes: plan.processes,
      guarantee: formatGuarantee(realisedGuarantee(plan, schedules.length, records)),
    })),
    tests: tests.map(test => {
      const replay = indexed.flatMap(shard => shard.report.tests).find(candidate => testKey(candidate) === testKey(test) && candidate.replay !== undefined)?.replay
      return replay === undefined || test.verdict !== 'pins-one' ? test : { ...test, replay }
    }),
    runs,
    processNotes: indexed.flatMap(shard => shard.report.processNotes.filter(note => note.run !== 'reference' || shard === first)),
  }
}

/** The `loadrace test` report in `dir`, or undefined when `dir` holds another kind of report (a sweep's). */
export function readSuiteShard(dir: string): { dir: string, report: SuiteReport } | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))
  } catch {
    return undefined
  }
  return (parsed as { report?: unknown }).report === 'test' ? { dir, report: parsed as SuiteReport } : undefined
}
