import type { ProcessRecord } from '../preload/protocol.js'
import { applyStructure, entryRequirements, predictedApplies, realisedApplies, type ApplyStructure } from '../space/applies.ts'
import { isolatingOrder } from '../space/isolate.ts'
import { createRng } from '../space/random.ts'
import type { Orders } from '../verdict/test-verdict.ts'
import type { CommandRun } from './command-run.ts'
import type { Rerunner } from './rerunner.ts'
import type { TestResult } from './results.ts'

/**
 * The two plugins whose race a pinned test sits on. A test does not see
 * loader entries: it sees what plugins registered, in the order they
 * applied. Between a passing and a failing side many plugin pairs can apply
 * in opposite orders (an app entry's spine mounts dozens of plugins that all
 * move with it), so the pairs whose order flipped are ranked — plugins
 * nothing else waits for (they register rather than provide), then pairs
 * the passing side applied at a tie, the order a system decides and a test
 * written on one machine pins — and the test runs alone under an order near
 * the passing side's that swaps one candidate pair and keeps every other
 * (`space/isolate.ts`): the first pair whose swap alone fails the test is
 * the race, and that order, one plugin swap from passing, is where the
 * narrowing to two loader entries starts. When no candidate fails alone, the
 * entries are narrowed from the failing side as before, and the plugin pair
 * named from the two runs of the blamed entry swap.
 */

/** How many candidate pairs are tried alone. */
const MOST_TRIED = 4

/** One side: its order of the configuration, and a run that loaded it. */
export interface SwapSide {
  readonly order: readonly string[]
  readonly run: CommandRun
}

/** The structure two sides' applies are read by, and the plugin pairs they applied in opposite orders, ranked. */
export interface Candidates {
  readonly structure: ApplyStructure
  readonly pairs: readonly (readonly [number, number])[]
}

/** What isolating a race gave: the two plugins, how surely, and (when isolated) the order one plugin swap from passing that fails. */
export interface PluginRace {
  readonly plugins: readonly [string, string]
  /** `alone`: the only pair of registering plugins that flipped; `isolated`: its swap alone failed the test; `unconfirmed`: the likeliest of several, none failing alone. */
  readonly how: 'alone' | 'isolated' | 'unconfirmed'
  /** Plugin pairs the two sides applied in opposite orders. */
  readonly flipped: number
  /** Runs alone it took. */
  readonly runs: number
  /** For `isolated`: the order it failed under. */
  readonly order?: readonly string[]
}

function recordOf(run: CommandRun, configuration: string): ProcessRecord | undefined {
  return run.processes.find(record => record.configuration === configuration && (record.applies?.length ?? 0) > 0)
}

/** Units nothing else waits for: no unit has them as mounter or provider. */
function registering(structure: ApplyStructure): Set<number> {
  const waitedFor = new Set(structure.units.flatMap(unit => unit.after))
  return new Set(structure.units.flatMap((unit, index) => waitedFor.has(unit.unit) ? [] : [index]))
}

/** The pairs (first, second) `pass` applied in that order and `fail` in the reverse, neither waiting for the other; ranked. */
function flippedPairs(structure: ApplyStructure, pass: readonly number[], fail: readonly number[], passReleased: readonly string[]): [number, number][] {
  const at = (order: readonly number[]) => new Map(order.map((unit, position) => [unit, position]))
  const [p, f] = [at(pass), at(fail)]
  const released = new Map(passReleased.map((entry, position) => [entry, position]))
  const last = (unit: number) => Math.max(...structure.units[unit]!.needs.map(entry => released.get(entry) ?? -1))
  const afters = structure.units.map(unit => new Set(unit.after))
  const pairs: [number, number][] = []
  for (const a of pass) {
    for (const b of pass) {
      if (p.get(a)! < p.get(b)! && f.has(a) && f.has(b) && f.get(b)! < f.get(a)! && !afters[a]!.has(structure.units[b]!.unit) && !afters[b]!.has(structure.units[a]!.unit)) pairs.push([a, b])
    }
  }
  const leaves = registering(structure)
  const registrants = pairs.filter(([a, b]) => leaves.has(a) && leaves.has(b))
  const ranked = registrants.length > 0 ? registrants : pairs
  const tie = ([a, b]: readonly [number, number]) => (last(a) === last(b) ? 0 : 1)
  return ranked.sort((x, y) => tie(x) - tie(y) || (p.get(x[0])! - p.get(y[0])!) || (p.get(x[1])! - p.get(y[1])!))
}

/** The ranked plugin pairs a passing and a failing run of `configuration` applied in opposite orders; undefined when they recorded no applies. */
export function raceCandidates(configuration: string, passing: SwapSide, failing: SwapSide): Candidates | undefined {
  const [pass, fail] = [recordOf(passing.run, configuration), recordOf(failing.run, configuration)]
  if (pass === undefined || fail === undefined) return undefined
  const structure = applyStructure({ released: pass.released, applies: pass.applies! }, new Set(passing.order), entryRequirements([pass, fail]))
  return { structure, pairs: flippedPairs(structure, realisedApplies(structure, pass.applies!), realisedApplies(structure, fail.applies!), pass.released) }
}

function named(structure: ApplyStructure, pair: readonly [number, number]): [string, string] {
  return [structure.units[pair[0]]!.unit, structure.units[pair[1]]!.unit]
}

/** The test run alone under orders that each swap one candidate pair near `passingOrder`: the first that fails names the race. */
export async function isolateRace(test: TestResult, configuration: string, candidates: Candidates, passingOrder: readonly string[], others: Orders, rerunner: Rerunner, why: { run: string, attempt: () => number }): Promise<PluginRace | undefined> {
  const { structure, pairs } = candidates
  if (pairs.length === 0) return undefined
  const rng = createRng(`isolate:${configuration}`)
  let runs = 0
  for (const pair of pairs.slice(0, MOST_TRIED)) {
    const order = isolatingOrder(structure, passingOrder, pair, pairs.filter(other => other !== pair), rng)
    if (order === undefined) continue
    runs++
    const rerun = await rerunner.alone(test, 'row', { ...others, [configuration]: order }, { purpose: 'narrowing', run: why.run, attempt: why.attempt(), of: undefined })
    const own = recordOf(rerun.run, configuration)
    const realised = own === undefined ? predictedApplies(structure, order) : realisedApplies(structure, own.applies!)
    const at = new Map(realised.map((unit, position) => [unit, position]))
    if (rerun.status === 'failed' && (at.get(pair[1]) ?? Infinity) < (at.get(pair[0]) ?? Infinity)) {
      return { plugins: named(structure, pair), how: 'isolated', flipped: pairs.length, runs, order: own?.released ?? order }
    }
  }
  return runs === 0 ? undefined : { plugins: named(structure, pairs[0]!), how: 'unconfirmed', flipped: pairs.length, runs }
}

/** The race one blamed swap of loader entries decides, from the two runs on its sides: the only flipped pair of registering plugins, else the likeliest. */
export function swapRace(configuration: string, passing: SwapSide, failing: SwapSide): PluginRace | undefined {
  const candidates = raceCandidates(configuration, passing, failing)
  const first = candidates?.pairs[0]
  if (candidates === undefined || first === undefined) return undefined
  return { plugins: named(candidates.structure, first), how: candidates.pairs.length === 1 ? 'alone' : 'unconfirmed', flipped: candidates.pairs.length, runs: 0 }
}
