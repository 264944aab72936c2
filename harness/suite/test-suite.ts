import { inShard } from '../explore/shard.ts'
import type { Shard } from '../settings/shard.ts'
import { minimise } from '../oracle/minimise.ts'
import { scheduleKey, type Schedule } from '../space/space.ts'
import type { ProcessRecord, RunSchedule } from '../preload/protocol.js'
import { runsOneTest } from './command-line.ts'
import { inOrder } from './jobs.ts'
import { planConfigurations, planRows, realisedGuarantee, rowsOfRun, runsNeeded, type ConfigurationPlan, type PlanSettings } from './plan.ts'
import { readFileSync } from 'node:fs'
import { testKey, vitestFailureBlock, type TestResult, type TestStatus } from './results.ts'
import { runCommand, type CommandRun, type RunPlace } from './suite-run.ts'
import { verdictOfResults, type Blame, type ConfigurationSummary, type PinnedSide, type Rows, type RunStatus, type TestFinding } from './verdict.ts'

/**
 * `loadrace test`: the user's own test command under every load order. The
 * command runs once unperturbed (the reference run: the preload records,
 * reorders nothing), then once per row of the plans of the configurations
 * the reference run booted; each test gets one verdict from its own results.
 * A test whose results differ between runs is rerun alone under the same
 * schedules: another result there makes it `flaky`; the same results make it
 * `pins-one`, and reruns alone along the swaps between its passing and
 * failing orders find the two loader entries whose swap flips it.
 */

/** How the command is run and planned. */
export interface SuiteSettings extends PlanSettings {
  /** Which runs of the plan this process runs: shard `index` of `count` (1-based), all by default. */
  readonly shard?: Shard
  /** How many times each side of a differing test is rerun alone before it is called `pins-one`. */
  readonly reruns: number
  /**
   * How many tests whose results differ are decided side by side (default 1):
   * each has its own reruns alone, one after another, and with `jobs` > 1
   * that many such reruns may run at once. The plan's runs of the whole
   * command never overlap.
   */
  readonly jobs?: number
}

/** Live news of a run, for the terminal. */
export interface SuiteEvents {
  onRunStart?(name: string, index: number, total: number): void
  onRunEnd?(run: CommandRun, index: number, total: number): void
  onTest?(finding: TestFinding): void
}

/** The run was interrupted (SIGINT, SIGTERM): no further run of the command starts. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted'
}

/** Why nothing could be judged (exit 4). */
export class NothingJudged extends Error {
  override readonly name = 'NothingJudged'
}

/** What a process did that the plan did not foresee. */
export interface ProcessNote {
  readonly run: string
  readonly configuration: string | null
  readonly pid: number
  /** `unknown`: the plan has no row for its configuration; `unreachable`: it released two waiting entries against its row (a module slower than the preload waits for). */
  readonly kind: 'unknown' | 'unreachable'
  readonly row?: Schedule
  readonly realised: Schedule
  /** For `unreachable`: the row's earlier entry, released after the later one although it was already waiting. */
  readonly inversion?: readonly [string, string]
}

/** The result of `loadrace test`. */
export interface SuiteOutcome {
  readonly reference: CommandRun
  readonly runs: readonly CommandRun[]
  readonly configurations: readonly ConfigurationSummary[]
  readonly tests: readonly TestFinding[]
  readonly processNotes: readonly ProcessNote[]
  readonly reruns: number
  readonly durationMs: number
}

const REFERENCE = 'reference'

function scheduleOf(place: RunPlace, mode: RunSchedule['mode'], rows: Rows): RunSchedule {
  return { mode, project: place.cwd, rows }
}

/** Says why a reference run judged nothing, or nothing when it can be judged. */
function checkReference(run: CommandRun, place: RunPlace): void {
  const command = place.command.argv.join(' ')
  if (run.startError !== undefined) {
    throw new NothingJudged(run.startError === 'ENOENT' ? `command not found: ${place.command.argv[0]} (in ${command})` : `the command could not start: ${run.startError}`)
  }
  if (run.results === undefined || run.results.length === 0) {
    throw new NothingJudged(`the command ran no test (exit ${run.exitCode ?? run.signal}); its output is in ${run.log}`)
  }
  if (run.processes.length === 0) {
    throw new NothingJudged(`no process the command started booted a cordis loader, so no load order was controlled (${run.results.length} tests ran); its output is in ${run.log}`)
  }
}

/** One key for the orders of every configuration a run booted: two runs with equal keys loaded alike. */
function ordersKey(orders: Rows): string {
  return JSON.stringify(Object.keys(orders).sort().map(configuration => [configuration, orders[configuration]]))
}

/** The realised order per configuration of the processes of one run. */
function realisedOrders(processes: readonly ProcessRecord[]): Rows {
  const orders: Record<string, Schedule> = {}
  for (const record of processes) if (record.configuration !== null && orders[record.configuration] === undefined) orders[record.configuration] = record.released
  return orders
}

/**
 * The first two entries a process released against its row although the
 * row's first was waiting already (an inversion the loader did not force:
 * the row's later entry was released before the earlier one was even
 * requested is no deviation), or undefined when it followed its row.
 */
export function unforcedInversion(record: Pick<ProcessRecord, 'row' | 'released' | 'requested'>): [string, string] | undefined {
  if (record.row === undefined) return undefined
  const rank = new Map(record.row.map((label, i) => [label, i]))
  const requestedAt = new Map(record.requested.map(point => [point.label, point.enabledAt]))
  for (let later = 0; later < record.released.length; later++) {
    const a = record.released[later]!
    for (let earlier = 0; earlier < later; earlier++) {
      const b = record.released[earlier]!
      if ((rank.get(a) ?? Infinity) < (rank.get(b) ?? Infinity) && (requestedAt.get(a) ?? 0) <= earlier) return [a, b]
    }
  }
  return undefined
}

/** Processes that ran a configuration the plan did not know, or released against their row without the loader forcing it. */
function notesOf(run: CommandRun): ProcessNote[] {
  return run.processes.flatMap((record): ProcessNote[] => {
    const base = { run: run.name, configuration: record.configuration, pid: record.pid, realised: record.released }
    if (record.unknown) return [{ ...base, kind: 'unknown' }]
    const inversion = unforcedInversion(record)
    return inversion === undefined ? [] : [{ ...base, kind: 'unreachable', row: record.row!, inversion }]
  })
}

/** The runs of the plan this shard runs (0-based indices). */
function runIndices(total: number, shard: Shard | undefined): number[] {
  return Array.from({ length: total }, (_, k) => k).filter(k => inShard(k, shard))
}

/** What the suite printed of `test`'s failure in `run` (vitest's default reporter), if anything. */
function failureOf(run: CommandRun, test: TestResult): string | undefined {
  try {
    return vitestFailureBlock(readFileSync(run.log, 'utf8'), test)
  } catch {
    return undefined
  }
}

function statusIn(run: CommandRun, key: string): RunStatus {
  return run.results?.find(result => testKey(result) === key)?.status ?? 'missing'
}

/** Runs the command as the plan says and judges every test. */
export async function testSuite(place: RunPlace, settings: SuiteSettings, events: SuiteEvents = {}, signal?: AbortSignal): Promise<SuiteOutcome> {
  const started = Date.now()
  let rerunCount = 0
  /** Runs the command unless the run was interrupted. */
  const runCommandOnce: typeof runCommand = async (where, request) => {
    if (signal?.aborted) throw new Interrupted()
    return runCommand(where, request)
  }
  events.onRunStart?.(REFERENCE, 0, 0)
  const reference = await runCommandOnce(place, { name: REFERENCE, schedule: scheduleOf(place, 'reference', {}) })
  checkReference(reference, place)
  const plans = planConfigurations(reference.processes, { ...settings, countsReference: settings.shard === undefined })
  const indices = runIndices(runsNeeded(plans), settings.shard)
  events.onRunEnd?.(reference, 0, indices.length + 1)
  const runs: CommandRun[] = []
  const rowsByRun = new Map<string, Rows>([[REFERENCE, {}]])
  for (const [position, k] of indices.entries()) {
    const name = `schedule-${k + 1}`
    const rows = rowsOfRun(plans, k)
    rowsByRun.set(name, rows)
    events.onRunStart?.(name, position + 1, indices.length + 1)
    const run = await runCommandOnce(place, { name, schedule: scheduleOf(place, 'row', rows) })
    runs.push(run)
    events.onRunEnd?.(run, position + 1, indices.length + 1)
  }
  const all = [reference, ...runs]
  const keys = [...new Map((reference.results ?? []).concat(...runs.map(run => run.results ?? [])).map(result => [testKey(result), result])).values()]

  /** Runs the test `name` alone under `rows` (in `mode`); its status and the processes it started. */
  const alone = async (test: TestResult, mode: RunSchedule['mode'], rows: Rows): Promise<{ status: RunStatus, run: CommandRun }> => {
    rerunCount++
    const run = await runCommandOnce(place, { name: `rerun-${rerunCount}`, schedule: scheduleOf(place, mode, rows), ...runsOneTest(place.command) ? { only: test.name, file: test.file } : {} })
    // A rerun the interruption ended says nothing about the test.
    if (signal?.aborted) throw new Interrupted()
    return { status: statusIn(run, testKey(test)), run }
  }

  /** One test's verdict: from its results when they agree, else decided by reruns alone. */
  const judge = async (test: TestResult): Promise<TestFinding> => {
    const key = testKey(test)
    const results = all.map(run => ({ run: run.name, status: statusIn(run, key) }))
    const failedIn = all.find(run => statusIn(run, key) === 'failed')
    const message = failedIn?.results?.find(result => testKey(result) === key)?.message
    const base = { file: test.file, name: test.name, results, ...message !== undefined ? { message } : {} }
    const plain = verdictOfResults(results.map(result => result.status))
    const finding = plain !== undefined ? { ...base, verdict: plain } : await decide(test, base, results)
    events.onTest?.(finding)
    return finding
  }
  const tests = await inOrder(keys, Math.max(1, settings.jobs ?? 1), judge)

  /** A test whose results differ between runs: flaky, or pins-one with its blame. */
  async function decide(test: TestResult, base: Omit<TestFinding, 'verdict'>, results: readonly { run: string, status: RunStatus }[]): Promise<TestFinding> {
    const passingRun = results.find(result => result.status === 'passed')!.run
    const failingRun = results.find(result => result.status === 'failed')!.run
    const sides: { run: string, status: TestStatus, orders?: Rows }[] = [{ run: passingRun, status: 'passed' }, { run: failingRun, status: 'failed' }]
    let failure: string | undefined
    const seen = new Map<string, RunStatus>()
    for (const side of sides) {
      const rows = rowsByRun.get(side.run)!
      for (let attempt = 0; attempt < settings.reruns; attempt++) {
        const rerun = await alone(test, side.run === REFERENCE ? 'reference' : 'row', rows)
        if (rerun.status !== side.status) return { ...base, verdict: 'flaky', flaky: { run: side.run, first: side.status, rerun: rerun.status } }
        const loaded = realisedOrders(rerun.run.processes)
        side.orders ??= loaded
        seen.set(ordersKey(loaded), rerun.status)
        if (side.status === 'failed') failure ??= failureOf(rerun.run, test)
      }
    }
    const [passing, failing] = sides.map(side => ({ run: side.run, status: side.status, orders: side.orders ?? {} })) as [PinnedSide, PinnedSide]
    const narrowed = await blame(test, passing, failing, seen)
    return {
      ...base,
      ...failure === undefined ? {} : { failure },
      verdict: 'pins-one',
      pinsOne: { passing, failing, ...narrowed, naturalOrderFails: failing.run === REFERENCE },
    }
  }

  /**
   * Narrows a pinned race to one swap of loader entries. For each
   * configuration the two sides booted in different orders, the test runs
   * alone with that configuration in its failing order and every other in its
   * passing order: the first configuration that alone makes it fail is the
   * one, and reruns alone along the swaps from its passing order to its
   * failing order find the adjacent pair that flips it.
   */
  async function blame(test: TestResult, passing: PinnedSide, failing: PinnedSide, seen: Map<string, RunStatus>): Promise<{ blame?: Blame, unblamed?: string }> {
    const differing = Object.keys(failing.orders).filter(configuration => passing.orders[configuration] !== undefined
      && scheduleKey(passing.orders[configuration]!) !== scheduleKey(failing.orders[configuration]!))
    if (differing.length === 0) return { unblamed: 'both sides booted their configurations in the same order when the test ran alone' }
    const reasons: string[] = []
    for (const configuration of differing) {
      const left = passing.orders[configuration]!
      const right = failing.orders[configuration]!
      if (left.length !== right.length || new Set([...left, ...right]).size !== left.length) {
        reasons.push(`the two sides of ${configuration} loaded different entries`)
        continue
      }
      const known = new Map([[scheduleKey(left), 'passed']])
      const hashOf = async (order: Schedule): Promise<string> => {
        const rows = { ...passing.orders, [configuration]: order }
        const status = known.get(scheduleKey(order)) ?? seen.get(ordersKey(rows)) ?? (await alone(test, 'row', rows)).status
        known.set(scheduleKey(order), status)
        return status
      }
      if (await hashOf(right) !== 'failed') {
        reasons.push(`${configuration} in its failing order alone does not fail it`)
        continue
      }
      try {
        const found = await minimise(left, right, hashOf)
        const flipped = found.leftHash === 'passed'
        const [passingOrder, failingOrder] = flipped ? [found.left, found.right] : [found.right, found.left]
        const entries = flipped ? found.blame : [found.blame[1], found.blame[0]] as const
        return { blame: { configuration, entries: [entries[0], entries[1]], passing: passingOrder, failing: failingOrder, runs: found.runs } }
      } catch (error) {
        reasons.push(error instanceof Error ? error.message : String(error))
      }
    }
    return { unblamed: reasons.join('; ') }
  }

  const configurations: ConfigurationSummary[] = plans.map((plan: ConfigurationPlan) => ({
    configuration: plan.configuration,
    entries: plan.entries,
    rows: planRows(plan),
    fromReference: plan.reference !== undefined,
    processes: plan.processes,
    guarantee: realisedGuarantee(plan, indices.length, [reference, ...runs].flatMap(run => run.processes)),
  }))
  return {
    reference,
    runs,
    configurations,
    tests,
    processNotes: runs.flatMap(notesOf).concat(notesOf(reference)),
    reruns: rerunCount,
    durationMs: Date.now() - started,
  }
}

/** Runs the command once with the given rows (`--order`), optionally one test alone: a replay. */
export async function replayOrder(place: RunPlace, rows: Rows, only?: string): Promise<CommandRun> {
  const run = await runCommand(place, { name: 'replay', schedule: scheduleOf(place, 'row', rows), ...only !== undefined && runsOneTest(place.command) ? { only } : {} })
  if (run.startError !== undefined) checkReference(run, place)
  return run
}
