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

/** One unit, the entries (operations of the space) whose release it needs, and the units that always apply before it. */
export interface ApplyUnit {
  readonly unit: string
  /** Its own entry, those its mounter and providers need, and every entry those can only be requested after. */
  readonly needs: readonly string[]
  /** Its mounter and providers, transitively: they apply before it whatever the load order. */
  readonly after: readonly string[]
}

/** The apply structure of one configuration. */
export interface ApplyStructure {
  /** Its units, in the order they applied when it was recorded. */
  readonly units: readonly ApplyUnit[]
  /** Ties runs have shown, as `first>second` unit pairs: the two applied at one release, in this order. */
  readonly ties: ReadonlySet<string>
  /** For each entry, the entries it is only ever requested after (a group's or include's entries, after it): what must be released before it. */
  readonly requires: ReadonlyMap<string, ReadonlySet<string>>
}

/**
 * For each entry, the entries released before it was requested in every
 * record that requested it (an entry of an include is requested only once
 * the include applied): it can never be released before them.
 */
export function entryRequirements(records: readonly { requested: readonly { label: string, enabledAt: number }[], released: readonly string[] }[]): Map<string, Set<string>> {
  const requires = new Map<string, Set<string>>()
  for (const record of records) {
    for (const { label, enabledAt } of record.requested) {
      const before = new Set(record.released.slice(0, enabledAt))
      const known = requires.get(label)
      if (known === undefined) requires.set(label, before)
      else for (const other of known) if (!before.has(other)) known.delete(other)
    }
  }
  return requires
}

/** `entries` with every entry they require added, transitively. */
function closed(entries: Iterable<string>, requires: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const all = new Set(entries)
  for (const entry of all) for (const required of requires.get(entry) ?? []) all.add(required)
  return all
}

/** The first apply of each unit, in order. */
function firstApplies(applies: readonly RecordedApply[]): RecordedApply[] {
  const seen = new Set<string>()
  return applies.filter(apply => !seen.has(apply.unit) && seen.add(apply.unit))
}

/** What each unit of `applies` needs, restricted to `ops`, and what applies before it, in first-apply order (units needing none left out). */
function unitsOf(applies: readonly RecordedApply[], ops: ReadonlySet<string>, requires: ReadonlyMap<string, ReadonlySet<string>>): ApplyUnit[] {
  const first = firstApplies(applies)
  const byUnit = new Map(first.map(apply => [apply.unit, apply]))
  const found = new Map<string, { needs: Set<string>, after: Set<string> }>()
  const walk = (unit: string, visiting: Set<string>): { needs: Set<string>, after: Set<string> } => {
    const known = found.get(unit)
    if (known !== undefined) return known
    const apply = byUnit.get(unit)
    const own = { needs: new Set<string>(), after: new Set<string>() }
    if (apply === undefined || visiting.has(unit)) return own
    visiting.add(unit)
    if (apply.entry !== null && ops.has(apply.entry)) own.needs.add(apply.entry)
    for (const other of [...apply.parent === null ? [] : [apply.parent], ...apply.providers]) {
      const before = walk(other, visiting)
      if (byUnit.has(other)) own.after.add(other)
      for (const entry of before.needs) own.needs.add(entry)
      for (const each of before.after) own.after.add(each)
    }
    visiting.delete(unit)
    const result = { needs: new Set([...closed(own.needs, requires)].filter(entry => ops.has(entry))), after: own.after }
    found.set(unit, result)
    return result
  }
  return first.map((apply) => {
    const { needs, after } = walk(apply.unit, new Set())
    return { unit: apply.unit, needs: [...needs].sort(), after: [...after].sort() }
  }).filter(unit => unit.needs.length > 0)
}

/** What one process showed: the order it released its entries in, and its applies. */
export interface AppliesRun {
  readonly released: readonly string[]
  readonly applies: readonly RecordedApply[]
}

/**
 * The ties a run shows: units whose last needed release was the same entry
 * there (neither is the other's mounter or provider), in the order they
 * applied, as `first>second`.
 */
function tiesOf(units: readonly ApplyUnit[], run: AppliesRun): string[] {
  const at = new Map(run.released.map((entry, index) => [entry, index]))
  const order = new Map(firstApplies(run.applies).map((apply, index) => [apply.unit, index]))
  const groups = new Map<string, ApplyUnit[]>()
  for (const unit of units) {
    if (!order.has(unit.unit) || unit.needs.some(entry => !at.has(entry))) continue
    const last = unit.needs.reduce((a, b) => (at.get(a)! >= at.get(b)! ? a : b))
    groups.set(last, [...groups.get(last) ?? [], unit])
  }
  const ties: string[] = []
  for (const group of groups.values()) {
    const sorted = [...group].sort((a, b) => order.get(a.unit)! - order.get(b.unit)!)
    sorted.forEach((a, i) => sorted.slice(i + 1).forEach((b) => {
      if (!b.after.includes(a.unit) && !a.after.includes(b.unit)) ties.push(`${a.unit}>${b.unit}`)
    }))
  }
  return ties
}

/**
 * The structure one process's applies show, needs restricted to `ops` (the
 * entries that are decision points) and closed under `requires` (what each
 * entry is only requested after); its ties from the order it released its
 * entries in.
 */
export function applyStructure(run: AppliesRun, ops: ReadonlySet<string>, requires: ReadonlyMap<string, ReadonlySet<string>> = new Map()): ApplyStructure {
  const units = unitsOf(run.applies, ops, requires)
  return { units, ties: new Set(tiesOf(units, run)), requires }
}

/**
 * `structure` as every run of its configuration gives it, whatever order its
 * plugins happened to apply in: its units in dependency order (each after
 * its mounters and providers), then by name, and no tie a run showed. Two
 * processes that loaded differently plan the same rows from it (the shards
 * of one run, each planning from its own natural run).
 */
export function canonicalStructure(structure: ApplyStructure): ApplyStructure {
  const left = [...structure.units].sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0))
  const placed = new Set<string>()
  const units: ApplyUnit[] = []
  while (left.length > 0) {
    const next = left.findIndex(unit => unit.after.every(other => placed.has(other) || !left.some(waiting => waiting.unit === other)))
    const [unit] = left.splice(Math.max(next, 0), 1)
    placed.add(unit!.unit)
    units.push(unit!)
  }
  return { units, ties: new Set(), requires: structure.requires }
}

/** `structure` with the ties `runs` showed added. */
export function withTiesOf(structure: ApplyStructure, runs: readonly AppliesRun[]): ApplyStructure {
  return { ...structure, ties: new Set([...structure.ties, ...runs.flatMap(run => tiesOf(structure.units, run))]) }
}

/** Whether `entry` can be released last among `entries`: none of them is only requested after it. */
function canComeLast(entry: string, entries: Iterable<string>, requires: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  for (const other of entries) if (other !== entry && requires.get(other)?.has(entry)) return false
  return true
}

/** Whether units `a` and `b` (indices) can apply in that order: see the file's comment. */
export function achievable(structure: ApplyStructure): (a: number, b: number) => boolean {
  const sets = structure.units.map(unit => new Set(unit.needs))
  const afters = structure.units.map(unit => new Set(unit.after))
  return (a, b) => {
    if (a === b) return false
    const [first, second] = [structure.units[a]!, structure.units[b]!]
    // b is a's mounter or provider (or theirs): it applies first whatever the load order.
    if (afters[a]!.has(second.unit)) return false
    if (afters[b]!.has(first.unit)) return true
    if (!second.needs.every(entry => sets[a]!.has(entry))) return true
    if (structure.ties.has(`${first.unit}>${second.unit}`)) return true
    if (structure.ties.has(`${second.unit}>${first.unit}`)) return false
    const both = new Set([...first.needs, ...second.needs])
    return first.needs.some(entry => sets[b]!.has(entry) && canComeLast(entry, both, structure.requires))
  }
}

/**
 * The order the units would apply in under the release order `schedule`,
 * by the structure (indices; units needing an entry the schedule does not
 * release left out): by their last needed release. At a tie, cordis
 * applies the plugins the release readies as events ready them: first
 * those whose every mounter and provider was up before it, then those
 * waiting for a plugin that applies at the same release, and so on (so the
 * fewer of its mounters and providers apply at that release, the earlier a
 * unit goes); among those readied together, in the order their fibers were
 * made, which for two entries' own plugins is the order their entries were
 * released (an entry's fiber is made when its import is handed over);
 * others in the order a run showed, and else in the reverse of the recorded
 * order (a tie not yet seen is where a new order may come from).
 */
export function predictedApplies(structure: ApplyStructure, schedule: readonly string[]): number[] {
  const at = new Map(schedule.map((op, index) => [op, index]))
  const times = structure.units.map(unit => Math.max(...unit.needs.map(entry => at.get(entry) ?? Infinity)))
  const afters = structure.units.map(unit => new Set(unit.after))
  const index = new Map(structure.units.map((unit, i) => [unit.unit, i]))
  // How many of its mounters and providers apply at its own release.
  const depth = structure.units.map((unit, i) => unit.after.filter(other => times[index.get(other) ?? -1] === times[i]).length)
  const tie = (a: number, b: number): number => {
    const [first, second] = [structure.units[a]!.unit, structure.units[b]!.unit]
    if (afters[b]!.has(first)) return -1
    if (afters[a]!.has(second)) return 1
    if (depth[a] !== depth[b]) return depth[a]! - depth[b]!
    // An entry's own plugin is the unit named by the entry's label.
    const [madeA, madeB] = [at.get(first), at.get(second)]
    if (madeA !== undefined && madeB !== undefined) return madeA - madeB
    if (structure.ties.has(`${first}>${second}`)) return -1
    if (afters[a]!.has(second) || structure.ties.has(`${second}>${first}`)) return 1
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
  for (const unit of unitsOf(applies, ops, structure.requires)) {
    const recorded = needs.get(unit.unit)
    if (recorded === undefined) return `${unit.unit} applied, which the recorded structure does not know`
    if (recorded !== unit.needs.join(',')) return `${unit.unit} waited for ${unit.needs.join(', ')}, not for ${recorded.split(',').join(', ')} as recorded`
  }
  return undefined
}
