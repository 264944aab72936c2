import type { AnyReporter } from '../report/reporter.ts'
import type { TestReach } from '../report/test-report.ts'
import type { Settings } from '../settings/settings.ts'
import type { BootRecord } from '../preload/protocol.js'
import type { ProcessNote, TestFinding } from '../verdict/test-verdict.ts'
import { shownPath, type CommandRun, type RunPlace } from './command-run.ts'
import { Interrupted } from './interrupted.ts'
import { judgeTests } from './judge-tests.ts'
import { NothingJudged, whyUnjudged } from './nothing-judged.ts'
import { configurationProof, rowCount, type AppliesReach } from './plan.ts'
import { reachOf } from './reach.ts'
import { Rerunner } from './rerunner.ts'
import { ordersKnown, realisedOrders } from './realised.ts'
import { runNatural, runPlan, type PlanRuns } from './runs.ts'
import type { Guarantee } from '../strategies/index.ts'

/**
 * `loadrace test`: the user's own test command under every load order. The
 * command runs once unperturbed (the natural run: the preload records,
 * reorders nothing), then once per row of the plans of the configurations
 * the natural run booted (`runs.ts`); each test gets one verdict from its
 * own results (`judge-tests.ts`), a test whose results differ decided by
 * reruns alone (`decide.ts`, `blame.ts`). Reporters are told of every run,
 * rerun and verdict as they happen.
 */

/** How a test run runs besides its settings: who is told, and what interrupts it. */
export interface SuiteRun {
  readonly reporters?: readonly AnyReporter[]
  readonly signal?: AbortSignal
}

/** A configuration's plan, and what its realised orders prove. */
export interface ConfigurationOutcome {
  readonly configuration: string
  readonly entries: readonly string[]
  /** Rows of the plan in all, the natural run's orders that counted among them. */
  readonly rows: number
  readonly fromNatural: boolean
  /** How many of the rows are the natural run's own orders. */
  readonly naturalOrders: number
  readonly processes: number
  /** What the plan covered: the orders of imports, or of plugins' applies. */
  readonly over: 'imports' | 'applies'
  /** The plugins (units) the natural run saw apply under its entries; undefined when it recorded none. */
  readonly units?: number
  readonly guarantee: Guarantee
  /** Why a plan over applies planned or proved over imports instead. */
  readonly note?: string
  /** A plan over applies: how far the recorded applies reached, and how many rows every order would take. */
  readonly reach?: AppliesReach
}

/** The result of a test run. */
export interface SuiteOutcome {
  readonly natural: CommandRun
  readonly runs: readonly CommandRun[]
  readonly configurations: readonly ConfigurationOutcome[]
  readonly reach: TestReach
  readonly tests: readonly TestFinding[]
  readonly processNotes: readonly ProcessNote[]
  readonly reruns: number
  /** Set when a signal stopped the run. */
  readonly interrupted?: { readonly during: string, readonly neverRan: readonly string[] }
  readonly durationMs: number
}

/**
 * The first two entries a process released against its row although the
 * row's first was waiting already (an inversion the loader did not force:
 * the row's later entry was released before the earlier one was even
 * requested is no deviation), or undefined when it followed its row.
 */
export function unforcedInversion(record: Pick<BootRecord, 'row' | 'released' | 'requested'>): [string, string] | undefined {
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

/** Each configuration's plan and the guarantee its realised orders support. */
function configurationsOf(plan: PlanRuns, natural: CommandRun): ConfigurationOutcome[] {
  const records = [natural, ...plan.runs].flatMap(run => run.processes)
  return plan.plans.map((configuration) => {
    const proof = configurationProof(configuration, plan.runs.length, records)
    const units = configuration.space.applies?.units.length
    return {
      configuration: configuration.configuration,
      entries: configuration.entries,
      rows: rowCount(configuration),
      fromNatural: configuration.counted.length > 0,
      naturalOrders: configuration.counted.length,
      processes: configuration.processes,
      over: configuration.plan.over ?? 'imports',
      ...units === undefined ? {} : { units },
      guarantee: proof.guarantee,
      ...proof.note === undefined ? {} : { note: proof.note },
      ...proof.reach === undefined ? {} : { reach: proof.reach },
    }
  })
}

/** Runs the command as the plan says and judges every test; throws `NothingJudged` (exit 4) or `Interrupted` during the natural run. */
export async function testSuite(place: RunPlace, settings: Settings, run: SuiteRun = {}): Promise<SuiteOutcome> {
  const started = Date.now()
  const reporters = run.reporters ?? []
  const natural = await runNatural(place, reporters, run.signal)
  const unjudged = whyUnjudged(natural, place, shownPath(place, natural.log))
  if (unjudged !== undefined) throw new NothingJudged(unjudged, natural)
  const plan = await runPlan(natural, place, settings, reporters, run.signal)
  const rerunner = new Rerunner(place, reporters, run.signal)
  const byName = new Map([natural, ...plan.runs].map(each => [each.name, each]))
  const realisedOf = (name: string, test: { file: string, name: string }) => realisedOrders(byName.get(name)?.processes ?? [], test)
  const knownOf = (name: string, test: { file: string, name: string }) => ordersKnown(byName.get(name)?.processes ?? [], test)
  const tests = await judgeTests([natural, ...plan.runs], {
    rerunner, realisedOf, knownOf, reruns: settings.reruns, jobs: settings.jobs, reporters, signal: run.signal, neverRan: plan.interrupted?.neverRan ?? [],
  })
  const interrupted = plan.interrupted ?? (run.signal?.aborted ? { during: `rerun-${rerunner.count}`, neverRan: [] } : undefined)
  if (interrupted !== undefined) for (const reporter of reporters) reporter.onInterrupted?.('interrupted')
  return {
    natural,
    runs: plan.runs,
    configurations: configurationsOf(plan, natural),
    reach: reachOf(natural, plan.runs),
    tests,
    processNotes: plan.runs.flatMap(notesOf).concat(notesOf(natural)),
    reruns: rerunner.count,
    ...interrupted === undefined ? {} : { interrupted },
    durationMs: Date.now() - started,
  }
}

export { Interrupted, NothingJudged }
