import type { Schedule } from './space.ts'

/**
 * When each plugin applies, as a function of the release order. A plugin
 * (a unit: an entry's own plugin, or a plugin an entry mounts) applies once
 * the plugin that mounted it has applied and every service it injects is
 * provided, so it applies with the last release among the entries it needs:
 * its own entry, and those its mounter and its providers need, transitively.
 * Two units apply in the order of their last needed releases; two whose last
 * needed release is the same one apply at a tie, in an order the system
 * decides, which a run shows.
 *
 * So the load order can put unit A before unit B strictly when B needs an
 * entry A does not (release all of A's needs first, then that entry), and at
 * a tie when they share a needed entry (released last) and the system orders
 * such a tie A first — known once a run has shown them tied, assumed possible
 * until then. This is what a plan over applies aims at, and what its
 * guarantee is checked against (`apply-orders.ts`).
 */

/** One apply as a process recorded it (`preload/applies.js`). */
export interface RecordedApply {
  readonly unit: string
  readonly entry: string | null
  readonly parent: string | null
  readonly providers: readonly string[]
  /** How many of the boot's imports had been released when it began: two units with the same count applied at a tie. */
  readonly released: number
}

/** One unit and the entries (operations of the space) whose release it needs. */
export interface ApplyUnit {
  readonly unit: string
  readonly needs: readonly string[]
}

/** The apply structure of one configuration. */
export interface ApplyStructure {
  /** Its units, in the order they applied when it was recorded. */
  readonly units: readonly ApplyUnit[]
  /** Ties runs have shown, as `first>second` unit pairs: the two applied at one release, in this order. */
  readonly ties: ReadonlySet<string>
}

/** The first apply of each unit, in order. */
function firstApplies(applies: readonly RecordedApply[]): RecordedApply[] {
  const seen = new Set<string>()
  return applies.filter(apply => !seen.has(apply.unit) && seen.add(apply.unit))
}

/** What each unit of `applies` needs, restricted to `ops`, in first-apply order (units needing none left out). */
function unitsOf(applies: readonly RecordedApply[], ops: ReadonlySet<string>): ApplyUnit[] {
  const first = firstApplies(applies)
  const byUnit = new Map(first.map(apply => [apply.unit, apply]))
  const needs = new Map<string, Set<string>>()
  const needsOf = (unit: string, visiting: Set<string>): Set<string> => {
    const known = needs.get(unit)
    if (known !== undefined) return known
    const apply = byUnit.get(unit)
    const found = new Set<string>()
    if (apply === undefined || visiting.has(unit)) return found
    visiting.add(unit)
    if (apply.entry !== null && ops.has(apply.entry)) found.add(apply.entry)
    for (const other of [...apply.parent === null ? [] : [apply.parent], ...apply.providers]) for (const entry of needsOf(other, visiting)) found.add(entry)
    visiting.delete(unit)
    needs.set(unit, found)
    return found
  }
  return first.map(apply => ({ unit: apply.unit, needs: [...needsOf(apply.unit, new Set())].sort() })).filter(unit => unit.needs.length > 0)
}

/** The ties `applies` shows among `units`: pairs that began applying after the same number of releases, in the order they did. */
function tiesOf(applies: readonly RecordedApply[], units: ReadonlySet<string>): string[] {
  const first = firstApplies(applies).filter(apply => units.has(apply.unit))
  const ties: string[] = []
  first.forEach((a, i) => first.slice(i + 1).forEach((b) => { if (a.released === b.released) ties.push(`${a.unit}>${b.unit}`) }))
  return ties
}

/** The structure one process's applies show, needs restricted to `ops` (the entries that are decision points). */
export function applyStructure(applies: readonly RecordedApply[], ops: ReadonlySet<string>): ApplyStructure {
  const units = unitsOf(applies, ops)
  return { units, ties: new Set(tiesOf(applies, new Set(units.map(unit => unit.unit)))) }
}

/** `structure` with the ties the runs of `applies` showed added. */
export function withTiesOf(structure: ApplyStructure, applies: readonly (readonly RecordedApply[])[]): ApplyStructure {
  const units = new Set(structure.units.map(unit => unit.unit))
  return { units: structure.units, ties: new Set([...structure.ties, ...applies.flatMap(run => tiesOf(run, units))]) }
}

/** Whether units `a` and `b` (indices) can apply in that order: see the file's comment. */
export function achievable(structure: ApplyStructure): (a: number, b: number) => boolean {
  const sets = structure.units.map(unit => new Set(unit.needs))
  return (a, b) => {
    if (a === b) return false
    const [first, second] = [structure.units[a]!, structure.units[b]!]
    if (!second.needs.every(entry => sets[a]!.has(entry))) return true
    if (structure.ties.has(`${first.unit}>${second.unit}`)) return true
    if (structure.ties.has(`${second.unit}>${first.unit}`)) return false
    return first.needs.some(entry => sets[b]!.has(entry))
  }
}

/**
 * The order the units would apply in under the release order `schedule`,
 * by the structure (indices; units needing an entry the schedule does not
 * release left out): by their last needed release; at a tie, in the order a
 * run showed, and else in the reverse of the recorded order (a tie not yet
 * seen is where a new order may come from).
 */
export function predictedApplies(structure: ApplyStructure, schedule: Schedule): number[] {
  const at = new Map(schedule.map((op, index) => [op, index]))
  const times = structure.units.map(unit => Math.max(...unit.needs.map(entry => at.get(entry) ?? Infinity)))
  const tie = (a: number, b: number): number => {
    if (structure.ties.has(`${structure.units[a]!.unit}>${structure.units[b]!.unit}`)) return -1
    if (structure.ties.has(`${structure.units[b]!.unit}>${structure.units[a]!.unit}`)) return 1
    return b - a
  }
  return structure.units.map((_, index) => index).filter(index => Number.isFinite(times[index]!)).sort((a, b) => times[a]! - times[b]! || tie(a, b))
}

/** The order `applies` shows the units of `structure` in (their first applies; units it does not know left out), as indices. */
export function realisedApplies(structure: ApplyStructure, applies: readonly Pick<RecordedApply, 'unit'>[]): number[] {
  const index = new Map(structure.units.map((unit, i) => [unit.unit, i]))
  const seen = new Set<number>()
  const order: number[] = []
  for (const { unit } of applies) {
    const at = index.get(unit)
    if (at !== undefined && !seen.has(at)) {
      seen.add(at)
      order.push(at)
    }
  }
  return order
}

/**
 * Why one process's `applies` cannot be read by `structure`, or undefined
 * when they can: a unit it applied that the structure does not know, or one
 * that waited for other entries than the structure says it needs (it
 * applied otherwise than recorded).
 */
export function unexplained(structure: ApplyStructure, applies: readonly RecordedApply[], ops: ReadonlySet<string>): string | undefined {
  const needs = new Map(structure.units.map(unit => [unit.unit, unit.needs.join(',')]))
  for (const unit of unitsOf(applies, ops)) {
    const recorded = needs.get(unit.unit)
    if (recorded === undefined) return `${unit.unit} applied, which the recorded structure does not know`
    if (recorded !== unit.needs.join(',')) return `${unit.unit} waited for ${unit.needs.join(', ')}, not for ${recorded.split(',').join(', ')} as recorded`
  }
  return undefined
}
