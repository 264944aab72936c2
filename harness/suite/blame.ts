import { minimise, transpositionPath } from '../oracle/minimise.ts'
import { scheduleKey, type Schedule } from '../space/space.ts'
import type { Blame, PinnedSide } from '../verdict/test-verdict.ts'
import { Interrupted } from './interrupted.ts'
import { appliesPrediction, isolateRace, raceCandidates, keptOfRace, openPrediction, type IsolationLimits, type RunUnder } from './plugin-blame.ts'
import { ordersKey } from './realised.ts'
import type { Rerun, RunsAlone } from './rerunner.ts'
import type { TestResult } from './results.ts'

/**
 * Narrows a pinned race to the two plugins it sits on and one swap of loader
 * entries. For each configuration the two sides booted in different orders,
 * the test runs alone with that configuration in its failing order and every
 * other in its passing order: the first configuration that alone makes it
 * fail is the one. When the sides' runs recorded applies, the class pairs
 * of plugins they applied in opposite orders are bisected by runs alone,
 * the failure's own words weighing each split (`plugin-blame.ts`), and the
 * adjacent swap of entries on the way from the passing order to the failing
 * one where the structure predicts the named pair changes sides is run on
 * both sides: passing at the first and failing at the second, it is the
 * blamed swap. Else (no applies, no split, or a swap that did not flip as
 * predicted) reruns alone along the swaps from the passing order to the
 * failing order (bisection, as the sweep shrinks a divergence, probing only
 * where the applies the two sides' structure predicts change) find the
 * adjacent pair that flips it, and the plugins are named from the runs on
 * its two sides. An order a side's confirming rerun already loaded is not
 * run again. A test with the same sides as an earlier one that was blamed
 * on the same configuration first runs at that blame's two orders: passing
 * at the first and failing at the second, it takes the blame (`after` names
 * whose) without a bisection of its own.
 */

/** The runs alone already made, by `ordersKey` of the orders they realised: a test's status there, and the run. */
export type KnownStatuses = Map<string, Rerun>

/** A blame found for an earlier test with the same sides: its file › name, and the blame. */
export interface Precedent {
  readonly test: string
  readonly blame: Blame
}

/** The blamed pair, or why none was. */
export type Narrowed = { blame?: Blame, unblamed?: string }

/** The configurations the two sides booted in different orders. */
function differing(passing: PinnedSide, failing: PinnedSide): string[] {
  return Object.keys(failing.orders).filter(configuration => passing.orders[configuration] !== undefined
    && scheduleKey(passing.orders[configuration]!) !== scheduleKey(failing.orders[configuration]!))
}

/** Runs alone under one configuration's orders, each order run once (a side's confirming rerun counts). */
function runsUnder(test: TestResult, configuration: string, passing: PinnedSide, failing: PinnedSide, seen: KnownStatuses, rerunner: RunsAlone) {
  const tried = new Map<string, Rerun>()
  let attempt = 0
  /** `own`: a step of this test's bisection, which tests with the same sides are not taken along on. */
  const runUnder = async (order: Schedule, own = true): Promise<Rerun> => {
    const rows = { ...passing.orders, [configuration]: order }
    const known = tried.get(scheduleKey(order)) ?? seen.get(ordersKey(rows))
      ?? await rerunner.alone(test, 'row', rows, { purpose: 'narrowing', own, run: failing.run, attempt: ++attempt, of: undefined })
    tried.set(scheduleKey(order), known)
    return known
  }
  return { runUnder, tried }
}

/**
 * How far the bisection over the whole of two sides' flipped class pairs
 * goes before it hands what it learnt to the bisection of entries: while
 * each run parts off at least a third of the pairs open.
 */
const SIDES_LIMITS: IsolationLimits = { most: 10, keeping: 2 / 3 }

/**
 * The adjacent swap of entries on the way from `left` to `right` where the
 * race changes sides: where `kept` (how many of its pairs an order is
 * predicted to keep) first falls from above to below halfway between its
 * two ends. Its two orders; undefined when it does not fall.
 */
function raceSwap(left: Schedule, right: Schedule, kept: (order: Schedule) => number): readonly [Schedule, Schedule] | undefined {
  const path = transpositionPath(left, right)
  const counts = path.map(kept)
  const halfway = (counts[0]! + counts.at(-1)!) / 2
  const at = counts.findIndex((count, index) => index > 0 && counts[index - 1]! > halfway && count < halfway)
  return at < 0 ? undefined : [path[at - 1]!, path[at]!]
}

/** Whether two orders hold the same distinct entries. */
function sameEntries(left: Schedule, right: Schedule): boolean {
  return left.length === right.length && new Set([...left, ...right]).size === left.length
}

/** The two entries one adjacent swap apart in `passing` and `failing`, in `passing`'s order. */
function swappedEntries(passing: Schedule, failing: Schedule): [string, string] {
  const at = passing.findIndex((entry, index) => entry !== failing[index])
  return [passing[at]!, passing[at + 1]!]
}

/** What naming the race from the two sides' runs gave: the blame, or a failing order nearer the passing one and where to probe between them. */
type RaceFirst = { blame: Omit<Blame, 'runs'> } | { failing: Schedule, predict: (order: Schedule) => string }

/**
 * Names the race from the two sides' own runs, when they recorded applies:
 * the class pairs the sides applied in opposite orders are bisected
 * (weighted by the failure's words, `plugin-blame.ts`), then the adjacent
 * swap of entries where the structure predicts the named pair changes
 * sides is run on both sides. When the bisection stops short of one class
 * pair (a run parted off less than a third of those open, or ten ran) or
 * the swap does not flip the test as predicted,
 * it gives what it learnt: the failing order nearest the passing one it
 * ran, and a prediction keyed on the class pairs still open. Undefined when
 * the runs recorded no applies.
 */
async function raceFirst(configuration: string, left: Schedule, right: Schedule, runUnder: RunUnder, failure: string, observed: readonly Rerun[]): Promise<RaceFirst | undefined> {
  const candidates = raceCandidates(configuration, { order: left, run: (await runUnder(left)).run }, { order: right, run: (await runUnder(right)).run })
  if (candidates === undefined) return undefined
  const race = await isolateRace(configuration, candidates, left, runUnder, failure, observed, SIDES_LIMITS)
  if (race === undefined) return undefined
  const end = race.order !== undefined && sameEntries(left, race.order) ? race.order : right
  const learnt = { failing: end, predict: openPrediction(candidates.structure, race.open) }
  if (race.how === 'unconfirmed') return learnt
  const swap = raceSwap(left, end, keptOfRace(candidates.structure, race.group))
  if (swap === undefined) return learnt
  const [passing, failing] = swap
  if ((await runUnder(passing)).status !== 'passed' || (await runUnder(failing)).status !== 'failed') return learnt
  return {
    blame: {
      configuration, entries: swappedEntries(passing, failing), passing, failing,
      plugins: race.plugins, how: race.how, flipped: race.flipped,
      ...race.classes === undefined ? {} : { classes: race.classes },
    },
  }
}

/**
 * Narrows one configuration's two orders to a pair of loader entries and the
 * pair of plugins whose race they decide, or says why it cannot: first from
 * the plugin pairs the two sides applied in opposite orders (`raceFirst`);
 * failing that, reruns alone along the adjacent swaps from the passing order
 * to the failing one (bisection) find the swap that flips the test, and the
 * plugin pairs the runs on its two sides applied in opposite orders — few,
 * one swap apart — are bisected in turn (`plugin-blame.ts`).
 */
async function narrowConfiguration(test: TestResult, configuration: string, passing: PinnedSide, failing: PinnedSide, seen: KnownStatuses, rerunner: RunsAlone, failure: string, precedents: readonly Precedent[]): Promise<Blame | string> {
  const left = passing.orders[configuration]!
  const right = failing.orders[configuration]!
  if (!sameEntries(left, right)) return `the two sides of ${configuration} loaded different entries`
  const { runUnder, tried } = runsUnder(test, configuration, passing, failing, seen, rerunner)
  const statusUnder = async (order: Schedule): Promise<string> => (await runUnder(order)).status
  if ((await runUnder(right, false)).status !== 'failed') return `${configuration} in its failing order alone does not fail it`
  // An earlier test with the same sides was narrowed on this configuration: if its swap flips this test too, the blame is the same.
  for (const precedent of precedents.filter(known => known.blame.configuration === configuration)) {
    if ((await runUnder(precedent.blame.passing, false)).status !== 'passed') continue
    if ((await runUnder(precedent.blame.failing, false)).status === 'failed') return { ...precedent.blame, runs: tried.size, after: precedent.test }
  }
  try {
    const first = (await runUnder(left)).status === 'passed' ? await raceFirst(configuration, left, right, runUnder, failure, [...tried.values()]) : undefined
    // Every order the narrowing ran alone or took from a side's confirming rerun, once.
    if (first !== undefined && 'blame' in first) return { ...first.blame, runs: tried.size }
    const found = first === undefined
      ? await minimise(left, right, statusUnder, appliesPrediction(configuration, { order: left, run: (await runUnder(left)).run }, { order: right, run: (await runUnder(right)).run }))
      : await minimise(left, first.failing, statusUnder, first.predict)
    const flipped = found.leftHash === 'passed'
    const [passingOrder, failingOrder] = flipped ? [found.left, found.right] : [found.right, found.left]
    const entries = flipped ? found.blame : [found.blame[1], found.blame[0]] as const
    const candidates = raceCandidates(configuration, { order: passingOrder, run: (await runUnder(passingOrder)).run }, { order: failingOrder, run: (await runUnder(failingOrder)).run })
    const race = candidates === undefined ? undefined : await isolateRace(configuration, candidates, passingOrder, runUnder, failure, [...tried.values()])
    return {
      configuration, entries: [entries[0], entries[1]], passing: passingOrder, failing: failingOrder, runs: tried.size,
      ...race === undefined ? {} : {
        plugins: race.plugins, how: race.how, flipped: race.flipped,
        ...race.classes === undefined ? {} : { classes: race.classes },
      },
    }
  } catch (error) {
    if (error instanceof Interrupted) throw error
    return error instanceof Error ? error.message : String(error)
  }
}

/** The pair of loader entries whose swap flips `test`, or why no pair was blamed. */
export async function narrow(test: TestResult, passing: PinnedSide, failing: PinnedSide, seen: KnownStatuses, rerunner: RunsAlone, failure = '', precedents: readonly Precedent[] = []): Promise<Narrowed> {
  const configurations = differing(passing, failing)
  if (configurations.length === 0) return { unblamed: 'both sides booted their configurations in the same order when the test ran alone' }
  const reasons: string[] = []
  for (const configuration of configurations) {
    const found = await narrowConfiguration(test, configuration, passing, failing, seen, rerunner, failure, precedents)
    if (typeof found !== 'string') return { blame: found }
    reasons.push(found)
  }
  return { unblamed: reasons.join('; ') }
}
