import { enveloped } from '../report/envelope.ts'
import type { TestReach, TestReport, TestReportRun } from '../report/test-report.ts'
import { formatShard, parseShard, type Shard } from '../settings/shard.ts'
import { formatGuarantee, STRATEGY_NAMES } from '../strategies/index.ts'
import { TEST_VERDICTS, verdictOfResults, type RunStatus, type TestFinding, type TestVerdict } from '../verdict/test-verdict.ts'
import { failedNaturally } from './decide.ts'
import { configurationProof, planConfigurations, rowCount } from './plan.ts'
import { testKey } from './results.ts'
import { NATURAL_RUN } from './runs.ts'

/**
 * One report from the reports of the shards of one `loadrace test` run
 * (`--shard i/n`). Every shard ran the natural run and its own schedules;
 * the merge unites the schedules, keeps each shard's reruns alone (a test a
 * shard found pinned or flaky stays so, with its blame), and judges every
 * other test on all the runs together. A test whose results differ only
 * across shards had no shard to rerun it: it is `pins-one` with its two sides
 * named and no pair blamed, and says so. The configurations are planned
 * again from the shards' own options, exactly as they planned them.
 */

/** Why shard reports cannot be merged: one line each. */
export class SuiteMergeError extends Error {
  override readonly name = 'SuiteMergeError'
}

/** A shard's report, with the folder it came from. */
export interface SuiteShard {
  readonly dir: string
  readonly report: TestReport
}

function shardOf(shard: SuiteShard): Shard {
  if (shard.report.options.shard === null) throw new SuiteMergeError(`${shard.dir}: not a shard (its report.json has no options.shard; run loadrace test --shard i/n)`)
  return parseShard(shard.report.options.shard)
}

/** The shards in order, once each, of one run: or the one line saying why not. */
function checkedShards(shards: readonly SuiteShard[]): (SuiteShard & { shard: Shard })[] {
  const indexed = shards.map(shard => ({ ...shard, shard: shardOf(shard) })).sort((a, b) => a.shard.index - b.shard.index)
  const first = indexed[0]!
  for (const other of indexed.slice(1)) {
    for (const key of ['strategy', 'budget', 'seed', 'depth', 'strength', 'reruns'] as const) {
      if (other.report.options[key] !== first.report.options[key]) throw new SuiteMergeError(`${first.dir} and ${other.dir} differ in ${key}: shards of one run share strategy, budget, seed, depth, strength and reruns`)
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
  return indexed
}

/** Each test's result in every run, across the shards, and its name and first failure message. */
function resultsAcross(shards: readonly SuiteShard[]): Map<string, { file: string, name: string, message?: string, byRun: Map<string, RunStatus> }> {
  const tests = new Map<string, { file: string, name: string, message?: string, byRun: Map<string, RunStatus> }>()
  for (const { report } of shards) {
    for (const test of report.tests) {
      const key = testKey(test)
      let known = tests.get(key)
      if (!known) tests.set(key, known = { file: test.file, name: test.name, byRun: new Map() })
      if (known.message === undefined && test.message !== undefined) known.message = test.message
      for (const result of test.results) if (!known.byRun.has(result.run) || result.status !== 'missing') known.byRun.set(result.run, result.status)
    }
  }
  return tests
}

/** A test's verdict on all the runs: a shard's own decision when it made one, else by the results, else pins-one unconfirmed. */
function mergedFinding(test: { file: string, name: string, message?: string, byRun: Map<string, RunStatus> }, runs: readonly TestReportRun[], decided: TestFinding | undefined): TestFinding {
  const results = runs.map(run => ({ run: run.name, status: test.byRun.get(run.name) ?? 'missing' as const }))
  if (decided) return { ...decided, results }
  const base = { file: test.file, name: test.name, results, ...test.message === undefined ? {} : { message: test.message } }
  const verdict = verdictOfResults(results.map(result => result.status))
  if (verdict !== undefined) return { ...base, verdict }
  const side = (status: 'passed' | 'failed') => {
    const run = results.find(result => result.status === status)!.run
    return { run, status, orders: runs.find(candidate => candidate.name === run)!.rows }
  }
  const failing = side('failed')
  return {
    ...base,
    verdict: 'pins-one',
    pinsOne: {
      passing: side('passed'),
      failing,
      unblamed: 'its two sides fell in different shards, so no shard reran it alone: not yet confirmed by a rerun, nor narrowed to a pair; run loadrace test unsharded to confirm and blame it',
      naturalOrderFails: failedNaturally(results),
    },
  }
}

/** The decisions the shards made by reruns alone (`pins-one`, `flaky`; a flaky one wins), by test. */
function decisionsOf(shards: readonly SuiteShard[]): Map<string, TestFinding> {
  const found = new Map<string, TestFinding>()
  for (const { report } of shards) {
    for (const test of report.tests) {
      if ((test.verdict !== 'pins-one' && test.verdict !== 'flaky') || test.partial !== undefined) continue
      const known = found.get(testKey(test))
      if (known === undefined || (known.verdict === 'pins-one' && test.verdict === 'flaky')) found.set(testKey(test), test)
    }
  }
  return found
}

/** The natural run and every shard's schedules, in plan order. */
function unitedRuns(shards: readonly SuiteShard[]): TestReportRun[] {
  const schedules = shards.flatMap(shard => shard.report.runs.slice(1)).sort((a, b) => Number(a.name.split('-')[1]) - Number(b.name.split('-')[1]))
  return [shards[0]!.report.runs[0]!, ...schedules]
}

/** The shards' reach together: their boots summed (each ran its own runs), the most tests any reached, every why kept. */
function mergedReach(reaches: readonly (TestReach | undefined)[]): { reach?: TestReach } {
  const known = reaches.filter((reach): reach is TestReach => reach !== undefined)
  if (known.length === 0) return {}
  const why = new Map<string, number>()
  for (const { why: each, boots } of known.flatMap(reach => reach.uncontrolled)) why.set(each, (why.get(each) ?? 0) + boots)
  const ambiguous = known.reduce((total, reach) => total + (reach.ambiguous ?? 0), 0)
  return {
    reach: {
      boots: known.reduce((total, reach) => total + reach.boots, 0),
      controlled: known.reduce((total, reach) => total + reach.controlled, 0),
      tests: Math.max(...known.map(reach => reach.tests)),
      uncontrolled: [...why].map(([each, boots]) => ({ why: each, boots })),
      ...ambiguous === 0 ? {} : { ambiguous },
      ...known[0]!.projects === undefined ? {} : { projects: known[0]!.projects },
    },
  }
}

/** Merges the reports of every shard of one run; each must be given once. */
export function mergeSuiteShards(given: readonly SuiteShard[]): TestReport {
  const shards = checkedShards(given)
  const first = shards[0]!.report
  const runs = unitedRuns(shards)
  const decided = decisionsOf(shards)
  const tests = [...resultsAcross(shards)].map(([key, test]) => mergedFinding(test, runs, decided.get(key)))
  const { options } = first
  const strategy = STRATEGY_NAMES.find(name => name === options.strategy) ?? 'cover'
  const plan = { strategy, budget: options.budget, seed: options.seed, ...options.depth === null ? {} : { depth: options.depth }, ...options.strength === null ? {} : { strength: options.strength } }
  const plans = planConfigurations(runs[0]!.processes, { ...plan, countsNatural: false })
  // Every run after the natural runs gave each configuration of the shared plan its row.
  const records = [
    ...shards.flatMap(shard => shard.report.runs[0]!.processes).map(process => ({ ...process, mode: 'natural' as const })),
    ...runs.slice(1).flatMap(run => run.processes).map(process => ({ ...process, mode: 'row' as const })),
  ]
  const counts = Object.fromEntries(TEST_VERDICTS.map(verdict => [verdict, tests.filter(test => test.verdict === verdict).length])) as Record<TestVerdict, number>
  const replays = new Map(shards.flatMap(shard => shard.report.tests).flatMap(test => test.replay === undefined ? [] : [[testKey(test), test.replay] as const]))
  return enveloped('test', {
    complete: shards.every(shard => shard.report.complete),
    options: { ...options, shard: null },
    body: {
      command: first.command,
      cwd: first.cwd,
      configurations: plans.map((configuration) => {
        const proof = configurationProof(configuration, runs.length - 1, records)
        const units = configuration.space.applies?.units.length
        return {
          configuration: configuration.configuration, entries: configuration.entries, rows: rowCount(configuration), fromNatural: false, naturalOrders: 0, fromReference: false,
          processes: configuration.processes, over: configuration.plan.over ?? 'imports', ...units === undefined ? {} : { units },
          guarantee: formatGuarantee(proof.guarantee), ...proof.note === undefined ? {} : { note: proof.note },
          ...proof.reach === undefined ? {} : { reach: proof.reach },
        }
      }),
      ...mergedReach(shards.map(shard => shard.report.reach)),
      tests: tests.map(test => test.verdict === 'pins-one' && replays.has(testKey(test)) ? { ...test, replay: replays.get(testKey(test))! } : test),
      runs,
      processNotes: shards.flatMap((shard, index) => shard.report.processNotes.filter(note => note.run !== NATURAL_RUN || index === 0)),
    },
    summary: { tests: tests.length, ...counts, runs: runs.length, reruns: shards.reduce((total, shard) => total + shard.report.summary.reruns, 0) },
    durationMs: shards.reduce((total, shard) => total + shard.report.summary.durationMs, 0),
  })
}
