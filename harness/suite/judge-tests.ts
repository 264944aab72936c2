import type { AnyReporter } from '../report/reporter.ts'
import { verdictOfResults, type RunStatus, type TestFinding } from '../verdict/test-verdict.ts'
import type { CommandRun } from './command-run.ts'
import type { Precedent } from './blame.ts'
import { decide, failedNaturally, type DecisionContext } from './decide.ts'
import { Interrupted } from './interrupted.ts'
import { inOrder } from './jobs.ts'
import { sideRun, type KnownOf, type RealisedOf } from './realised.ts'
import { testKey, type TestResult } from './results.ts'
import { statusIn, type Rerunner } from './rerunner.ts'
import { SharedReruns, sidesKey } from './shared-reruns.ts'

/**
 * One verdict per test, from the suite's own results in every run: a test
 * whose results agree is judged by them; one whose results differ is decided
 * by reruns alone (`decide.ts`), `jobs` of them side by side, tests with the
 * same sides one after another, sharing their reruns (`shared-reruns.ts`)
 * and checking each other's blames (`blame.ts`). When the run
 * was interrupted, a verdict the unfinished part could still change says so
 * (`partial`): `holds` or `fails` while rows of the plan never ran, and a
 * test whose results differ and whose reruns never finished.
 */

/** How the tests are judged. */
export interface JudgeContext extends DecisionContext {
  readonly rerunner: Rerunner
  readonly jobs: number
  readonly reporters: readonly AnyReporter[]
  readonly signal?: AbortSignal
  /** Runs of the plan that never ran (an interrupted run): they could still change a plain verdict. */
  readonly neverRan: readonly string[]
}

/** Every test any run reported, once, in the order first reported. */
export function testsOf(runs: readonly CommandRun[]): TestResult[] {
  return [...new Map(runs.flatMap(run => run.results ?? []).map(result => [testKey(result), result])).values()]
}

/** A differing test that was not decided: both sides named from the runs, nothing confirmed. */
function undecided(test: TestResult, base: Omit<TestFinding, 'verdict'>, results: readonly { run: string, status: RunStatus }[], orders: RealisedOf, knownOf?: KnownOf): TestFinding {
  const side = (status: 'passed' | 'failed') => {
    const run = sideRun(test, results, status, knownOf)!
    return { run, status, orders: orders(run, test) }
  }
  const failing = side('failed')
  return {
    ...base,
    verdict: 'pins-one',
    partial: 'its results differ between runs, and the run was interrupted before reruns alone confirmed it (it may still be flaky)',
    pinsOne: { passing: side('passed'), failing, unblamed: 'interrupted before it was rerun alone', naturalOrderFails: failedNaturally(results) },
  }
}

/** One test's verdict. */
async function judgeTest(test: TestResult, runs: readonly CommandRun[], context: Omit<JudgeContext, 'rerunner'> & DecisionContext): Promise<TestFinding> {
  const key = testKey(test)
  const results = runs.map(run => ({ run: run.name, status: statusIn(run, key) }))
  const message = runs.flatMap(run => run.results ?? []).find(result => testKey(result) === key && result.status === 'failed')?.message
  const base = { file: test.file, name: test.name, results, ...message !== undefined ? { message } : {} }
  const plain = verdictOfResults(results.map(result => result.status))
  if (plain !== undefined) {
    const open = context.neverRan.length > 0 && (plain === 'holds' || plain === 'fails')
    return { ...base, verdict: plain, ...open ? { partial: `${context.neverRan.join(', ')} never ran, and could change it` } : {} }
  }
  if (context.signal?.aborted) return undecided(test, base, results, context.realisedOf, context.knownOf)
  try {
    return await decide(test, base, results, context)
  } catch (error) {
    if (error instanceof Interrupted) return undecided(test, base, results, context.realisedOf, context.knownOf)
    throw error
  }
}

/** The tests in batches judged one after another: differing tests with the same sides together (they share reruns), every other test alone. */
function batchesOf(tests: readonly TestResult[], runs: readonly CommandRun[], realisedOf: RealisedOf, knownOf?: KnownOf): TestResult[][] {
  const batches: TestResult[][] = []
  const bySides = new Map<string, TestResult[]>()
  for (const test of tests) {
    const results = runs.map(run => ({ run: run.name, status: statusIn(run, testKey(test)) }))
    if (verdictOfResults(results.map(result => result.status)) !== undefined) {
      batches.push([test])
      continue
    }
    const key = sidesKey(test, results, realisedOf, knownOf)
    const batch = bySides.get(key)
    if (batch !== undefined) batch.push(test)
    else {
      bySides.set(key, [test])
      batches.push(bySides.get(key)!)
    }
  }
  return batches
}

/** Judges every test the runs reported, telling the reporters of each as soon as it is judged; findings keep the tests' order. */
export async function judgeTests(runs: readonly CommandRun[], context: JudgeContext): Promise<TestFinding[]> {
  const tests = testsOf(runs)
  const judged = new Map<string, TestFinding>()
  await inOrder(batchesOf(tests, runs, context.realisedOf, context.knownOf), Math.max(1, context.jobs), async (batch) => {
    const shared = batch.length > 1 ? new SharedReruns(context.rerunner, batch) : undefined
    const precedents: Precedent[] = []
    for (const test of batch) {
      const finding = await judgeTest(test, runs, shared === undefined ? context : { ...context, rerunner: shared.for(test), precedents: [...precedents] })
      const blame = finding.pinsOne?.blame
      if (blame !== undefined && blame.after === undefined) precedents.push({ test: testKey(test), blame })
      for (const reporter of context.reporters) reporter.onTestJudged?.(finding)
      judged.set(testKey(test), finding)
    }
  })
  return tests.map(test => judged.get(testKey(test))!)
}
