import type { BootRecord } from '../preload/protocol.js'
import { applyStructure, entryRequirements, predictedApplies, realisedApplies, type ApplyStructure } from '../space/applies.ts'
import { realisable } from '../space/apply-rows.ts'
import { flippedGroups, splittingOrder } from '../space/isolate.ts'
import { failureScorer } from './failure-names.ts'
import { createRng } from '../space/random.ts'
import type { CommandRun } from './command-run.ts'
import type { Rerun } from './rerunner.ts'

/**
 * The two plugins whose race a pinned test sits on. A test does not see
 * loader entries: it sees what plugins registered, in the order they
 * applied. Even the two sides of one blamed swap of loader entries can apply
 * several plugin pairs in opposite orders (an app entry's spine mounts dozens
 * of plugins that all move with it). Plugins that need the same releases
 * always apply together: they form a class, and the load order can only move
 * classes past each other. So the class pairs the two sides flipped are
 * bisected: the test runs alone under an order near the passing side's that
 * the structure predicts flips as near half of them as it can and keeps the
 * rest (`space/isolate.ts`; none is run when no order is predicted to split
 * them; the runs that narrowed the loader entries rule pairs out first), the applies
 * that run recorded say which it really flipped, and the culprit is among
 * those when the test failed and among the others when it passed, until one
 * class pair is left. Within it, plugins nothing else waits for (they
 * register rather than provide) are named, and among several, the one the
 * test's own failure text names (`failure-names.ts`); when bisection cannot
 * split the class pairs, a pair of two registering plugins the failure names
 * most.
 */

/** The most runs alone the bisection takes. */
const MOST_RUNS = 10

/** One side: its order of the configuration, and a run that loaded it. */
export interface SwapSide {
  readonly order: readonly string[]
  readonly run: CommandRun
}

/** The structure two sides' applies are read by, and the plugin pairs they applied in opposite orders. */
export interface Candidates {
  readonly structure: ApplyStructure
  readonly pairs: readonly (readonly [number, number])[]
}

/** The race named: the two plugins, how surely, how many pairs flipped, the runs it took, and the closest failing order. */
export interface PluginRace {
  readonly plugins: readonly [string, string]
  /**
   * `isolated`: bisection left one pair of classes, each one plugin (or one
   * registering plugin); `class`: it left one pair of classes, and a class
   * holds several registering plugins the load order cannot move apart (the
   * one the failure names is given); `unconfirmed`: bisection could not split
   * the pairs further, the likeliest given.
   */
  readonly how: 'isolated' | 'class' | 'unconfirmed'
  /** Plugin pairs the two sides applied in opposite orders. */
  readonly flipped: number
  readonly runs: number
  /** The plugins that always apply with each of the two named (the named included), when more than one. */
  readonly classes?: readonly [readonly string[], readonly string[]]
  /** The failing order closest to passing the bisection ran. */
  readonly order?: readonly string[]
  /** The plugin pairs (unit indices, first as the passing side applied them) of the class pair named. */
  readonly group: readonly (readonly [number, number])[]
  /** Every class pair the bisection left open, as its plugin pairs. */
  readonly open: readonly (readonly (readonly [number, number])[])[]
}

/**
 * How far a bisection goes: at most `most` runs, and (`keeping`) no further
 * once a run leaves more than that share of the class pairs it had open.
 */
export interface IsolationLimits {
  readonly most?: number
  readonly keeping?: number
}

/** Runs the test alone with the configuration in `order` (once per order). */
export type RunUnder = (order: readonly string[]) => Promise<Rerun>

function recordOf(run: CommandRun, configuration: string): BootRecord | undefined {
  return run.processes.find(record => record.configuration === configuration && (record.applies?.length ?? 0) > 0)
}

/** The pairs (first, second) `pass` applied in that order and `fail` in the reverse, neither waiting for the other. */
function flippedPairs(structure: ApplyStructure, pass: readonly number[], fail: readonly number[]): [number, number][] {
  const at = (order: readonly number[]) => new Map(order.map((unit, position) => [unit, position]))
  const [p, f] = [at(pass), at(fail)]
  const afters = structure.units.map(unit => new Set(unit.after))
  const pairs: [number, number][] = []
  for (const a of pass) {
    for (const b of pass) {
      if (p.get(a)! < p.get(b)! && f.has(a) && f.has(b) && f.get(b)! < f.get(a)! && !afters[a]!.has(structure.units[b]!.unit) && !afters[b]!.has(structure.units[a]!.unit)) pairs.push([a, b])
    }
  }
  return pairs
}

/** The apply structure a passing and a failing run of `configuration` show, with their records; undefined when they recorded no applies. */
function sidesStructure(configuration: string, passing: SwapSide, failing: SwapSide): { structure: ApplyStructure, pass: BootRecord, fail: BootRecord } | undefined {
  const [pass, fail] = [recordOf(passing.run, configuration), recordOf(failing.run, configuration)]
  if (pass === undefined || fail === undefined) return undefined
  return { structure: applyStructure({ released: pass.released, applies: pass.applies! }, new Set(passing.order), entryRequirements([pass, fail])), pass, fail }
}

/** The plugin pairs a passing and a failing run of `configuration` applied in opposite orders; undefined when they recorded no applies. */
export function raceCandidates(configuration: string, passing: SwapSide, failing: SwapSide): Candidates | undefined {
  const sides = sidesStructure(configuration, passing, failing)
  if (sides === undefined) return undefined
  const { structure, pass, fail } = sides
  return { structure, pairs: flippedPairs(structure, realisedApplies(structure, pass.applies!), realisedApplies(structure, fail.applies!)) }
}

/**
 * What a release order of `configuration` is predicted to apply, as a key
 * (the structure the two sides' runs show): orders with the same key are
 * expected to give the test the same result, so narrowing probes only where
 * it changes (`oracle/minimise.ts`). Undefined when the runs recorded no applies.
 */
export function appliesPrediction(configuration: string, passing: SwapSide, failing: SwapSide): ((order: readonly string[]) => string) | undefined {
  const structure = sidesStructure(configuration, passing, failing)?.structure
  if (structure === undefined) return undefined
  return order => predictedApplies(structure, realisable(order, structure.requires)).join(',')
}

/**
 * How many pairs of `group` (a class pair, as `PluginRace.group`) an order
 * is predicted to keep in the order the passing side applied them, by the
 * structure two sides' runs show: it falls where the race changes sides on
 * the way between them. (Plugins that apply at the same release are ordered
 * by the system, so the prediction may count a few pairs of the passing
 * side itself as flipped.)
 */
export function keptOfRace(structure: ApplyStructure, group: readonly (readonly [number, number])[]): (order: readonly string[]) => number {
  return (order) => {
    const applied = predictedApplies(structure, realisable(order, structure.requires))
    return group.filter(pair => flippedGroups(applied, [[pair]]).size === 0).length
  }
}

/**
 * Which of `groups` (class pairs, as `PluginRace.open`) an order is
 * predicted to flip, as a key: narrowing the entries between two sides
 * probes only where it changes, once a bisection has ruled the other class
 * pairs out.
 */
export function openPrediction(structure: ApplyStructure, groups: readonly (readonly (readonly [number, number])[])[]): (order: readonly string[]) => string {
  return order => [...flippedGroups(predictedApplies(structure, realisable(order, structure.requires)), groups)].join(',')
}

/** A class pair, as a key: the two classes' keys (their needs), in the passing order. */
type ClassPair = string

/** Groups units by what they need: a class always applies together. */
function classesOf(structure: ApplyStructure): { classOf: (unit: number) => string, members: Map<string, number[]> } {
  const members = new Map<string, number[]>()
  structure.units.forEach((unit, index) => {
    const key = unit.needs.join(',')
    members.set(key, [...members.get(key) ?? [], index])
  })
  return { classOf: unit => structure.units[unit]!.needs.join(','), members }
}

/** The plugins to name in a class: those nothing else waits for, and among several the one the failure names most. */
function namedIn(structure: ApplyStructure, units: readonly number[], score: (unit: string) => number): { name: string, all: string[], score: number, registers: boolean } {
  const waitedFor = new Set(structure.units.flatMap(unit => unit.after))
  const registering = units.filter(unit => !waitedFor.has(structure.units[unit]!.unit))
  const pool = (registering.length > 0 ? registering : units).map(unit => structure.units[unit]!.unit)
  const best = [...pool].sort((a, b) => score(b) - score(a))[0]!
  return { name: best, all: pool, score: score(best), registers: registering.length > 0 }
}

/** How likely a class pair left open is the race: pairs of plugins that register (nothing waits for them) first, then the failure's words. */
function likelihood([a, b]: readonly [{ score: number, registers: boolean }, { score: number, registers: boolean }]): number {
  return (a.registers && b.registers ? 1_000 : 0) + a.score + b.score
}

/**
 * How likely each open class pair is the race, for weighing a bisection's
 * split: half of the weight spread evenly, half by what the failure's words
 * say of both plugins (pairs of registering plugins first). The even half
 * bounds the cost of a misleading text to about one run more than plain
 * halving; a text that names both plugins of the race lets the first run
 * flip that pair alone.
 */
function priorWeights(named: readonly (readonly [{ score: number, registers: boolean }, { score: number, registers: boolean }])[]): number[] {
  const said = named.map(([a, b]) => (a.registers && b.registers ? 1 : 0.1) * (a.score * b.score + (a.score + b.score) / 100))
  const total = said.reduce((sum, weight) => sum + weight, 0)
  return named.map((_, index) => 1 / named.length + (total > 0 ? said[index]! / total : 1 / named.length))
}

/** The plugin pairs two sides flipped, grouped by class pair, with each class's members. */
function classPairs(structure: ApplyStructure, pairs: Candidates['pairs']): { members: Map<string, number[]>, byClass: Map<ClassPair, (readonly [number, number])[]> } {
  const { classOf, members } = classesOf(structure)
  const byClass = new Map<ClassPair, (readonly [number, number])[]>()
  for (const pair of pairs) {
    const key = `${classOf(pair[0])}|${classOf(pair[1])}`
    byClass.set(key, [...byClass.get(key) ?? [], pair])
  }
  return { members, byClass }
}

/** The class pairs the runs already made leave open, for free: a passing run's flipped ones and a failing run's kept ones are out (unless none would be left). */
function ruledOut(configuration: string, structure: ApplyStructure, byClass: Map<ClassPair, (readonly [number, number])[]>, observed: readonly Rerun[]): ClassPair[] {
  let open = [...byClass.keys()]
  for (const known of observed) {
    const own = recordOf(known.run, configuration)
    if (own === undefined || (known.status !== 'passed' && known.status !== 'failed')) continue
    const flipped = flippedGroups(realisedApplies(structure, own.applies!), open.map(key => byClass.get(key)!))
    const kept = open.filter((_, index) => flipped.has(index) === (known.status === 'failed'))
    if (kept.length > 0) open = kept
  }
  return open
}

/**
 * Bisects the class pairs two sides flipped, running the test alone (see
 * the file's comment); `failure` is the test's own failure text, which
 * names one plugin of a class the load order cannot split. `observed` are
 * runs alone of the same configuration already made (narrowing's): before
 * any run of its own, a class pair a passing one flipped, or a failing one
 * kept, is ruled out (unless that would rule out every pair).
 */
export async function isolateRace(configuration: string, candidates: Candidates, passingOrder: readonly string[], runUnder: RunUnder, failure: string, observed: readonly Rerun[] = [], limits: IsolationLimits = {}): Promise<PluginRace | undefined> {
  const { most = MOST_RUNS, keeping = 1 } = limits
  const { structure } = candidates
  if (candidates.pairs.length === 0) return undefined
  const { members, byClass } = classPairs(structure, candidates.pairs)
  const rng = createRng(`isolate:${configuration}`)
  let open = ruledOut(configuration, structure, byClass, observed)
  const score = failureScorer(structure, failure)
  const namedOf = new Map([...byClass.keys()].map(key => {
    const [first, second] = key.split('|') as [string, string]
    return [key, [namedIn(structure, members.get(first)!, score), namedIn(structure, members.get(second)!, score)] as const]
  }))
  let runs = 0
  let failing: readonly string[] | undefined
  for (let stuck = 0; open.length > 1 && runs < most && stuck < 3;) {
    const groups = open.map(key => byClass.get(key)!)
    const split = splittingOrder(structure, passingOrder, groups, rng, undefined, priorWeights(open.map(key => namedOf.get(key)!)))
    // No order is predicted to split them: no run alone could tell them apart.
    if (split === undefined) break
    const rerun = await runUnder(split.order)
    runs++
    const own = recordOf(rerun.run, configuration)
    const flipped = own === undefined ? new Set<number>() : flippedGroups(realisedApplies(structure, own.applies!), groups)
    if (flipped.size === 0 || flipped.size === open.length) {
      // The run applied otherwise than predicted: try other arrangements.
      stuck++
      open = rng.shuffle([...open])
      continue
    }
    const before = open.length
    if (rerun.status === 'failed') {
      open = open.filter((_, index) => flipped.has(index))
      failing = own?.released
    } else {
      open = open.filter((_, index) => !flipped.has(index))
    }
    // Splits this uneven say the arrangements cannot part the pairs left: the caller has a cheaper way on.
    if (open.length > before * keeping) break
  }
  const named = open.map(key => namedOf.get(key)!)
  // Several class pairs left: of two registering plugins, the one the failure names most (the first of equals, as bisection left them).
  const chosen = named.reduce((best, pair, index) => likelihood(pair) > likelihood(named[best]!) ? index : best, 0)
  const [a, b] = named[chosen]!
  const single = a.all.length === 1 && b.all.length === 1
  return {
    plugins: [a.name, b.name],
    how: open.length > 1 ? 'unconfirmed' : single ? 'isolated' : 'class',
    flipped: candidates.pairs.length,
    runs,
    group: byClass.get(open[chosen]!)!,
    open: open.map(key => byClass.get(key)!),
    ...single ? {} : { classes: [a.all, b.all] as const },
    ...failing === undefined ? {} : { order: failing },
  }
}
