import { ApplyOrders, TieReversals } from './apply-orders.ts'
import { predictedApplies, type ApplyStructure } from './applies.ts'
import type { Rng } from './random.ts'
import type { Schedule, Space } from './space.ts'

/**
 * Release orders that make the units of an apply structure apply in every
 * relative order of every t of them that the load order can give, after the
 * orders already seen (a natural run's): each row found by a seeded local
 * search over the order of the imports, scored by the owed apply orders it
 * would newly show (predicted by the structure). Ties come first: a pair of
 * units a run showed applying at a tie (waiting on the same last release,
 * ordered by the system, the order a test written on one machine pins) is
 * worth more than any number of other pairs, so the first row reverses every
 * tie the seen orders showed that one row can, and then as many other pairs
 * as it can. The search starts from the reverse of what was seen and from a
 * construction that releases, unit by unit in the reverse of the order they
 * applied in, what each needs — the entries it shares with other units
 * first, its own last. Rows stop when every owed order is predicted, when a
 * row would add nothing, or at the budget; how many rows every owed order
 * would take is estimated beside them.
 */

/** Rough bound on the work (owed-order cells visited) spent on the search for one row. */
const SEARCH_WORK = 6_000_000
const MIN_STEPS = 100
const MAX_STEPS = 6000
/** A tie reversed outweighs every other order a row can show. */
const TIE_WEIGHT = 1_000_000
/** Rows beyond which the estimate of rows needed stops counting. */
const MOST_ROWS_ESTIMATED = 12

/** The chains' first operations: the imports the search orders. */
function importsOf(space: Space): string[] {
  return space.chains.map(chain => chain.ops[0]!)
}

/**
 * `order` with every entry moved after the entries it is only requested
 * after (stably: otherwise as given), the order a process following it as a
 * row would realise.
 */
export function realisable(order: readonly string[], requires: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const placed = new Set<string>()
  const present = new Set(order)
  const waiting = [...order]
  const result: string[] = []
  while (waiting.length > 0) {
    const next = waiting.findIndex(entry => [...requires.get(entry) ?? []].every(required => placed.has(required) || !present.has(required)))
    const [entry] = waiting.splice(next < 0 ? 0 : next, 1)
    placed.add(entry!)
    result.push(entry!)
  }
  return result
}

/** A full schedule from an order of the imports: each chain whole, right after its import. */
function expanded(space: Space, imports: readonly string[]): Schedule {
  const chain = new Map(space.chains.map(each => [each.ops[0]!, each.ops]))
  return imports.flatMap(op => chain.get(op) ?? [op])
}

/** The imports of `schedule`, in its order. */
function importOrder(space: Space, schedule: Schedule): string[] {
  const heads = new Set(importsOf(space))
  return schedule.filter(op => heads.has(op))
}

/** Releases, unit by unit in the order `units` gives, what each still needs (shared entries first), then the rest. */
function construction(structure: ApplyStructure, units: readonly number[], imports: readonly string[]): string[] {
  const sharing = new Map<string, number>()
  for (const unit of structure.units) for (const entry of unit.needs) sharing.set(entry, (sharing.get(entry) ?? 0) + 1)
  const released = new Set<string>()
  const order: string[] = []
  for (const index of units) {
    const missing = structure.units[index]!.needs.filter(entry => !released.has(entry) && imports.includes(entry))
    missing.sort((a, b) => (sharing.get(b) ?? 0) - (sharing.get(a) ?? 0) || a.localeCompare(b))
    for (const entry of missing) {
      released.add(entry)
      order.push(entry)
    }
  }
  return [...order, ...imports.filter(entry => !released.has(entry))]
}

/** Improves `start` by seeded swaps and moves while its score does not fall (ties accepted, to cross plateaus). */
export function climb(start: readonly string[], score: (order: readonly string[]) => number, rng: Rng, steps: number): { order: string[], score: number } {
  let order = [...start]
  let best = score(order)
  for (let step = 0; step < steps && order.length > 1; step++) {
    const next = [...order]
    const i = rng.int(next.length)
    const j = rng.int(next.length)
    if (i === j) continue
    if (rng.int(2) === 0) [next[i], next[j]] = [next[j]!, next[i]!]
    else next.splice(j, 0, next.splice(i, 1)[0]!)
    const value = score(next)
    if (value >= best) {
      order = next
      best = value
    }
  }
  return { order, score: best }
}

/** What the rows of a plan over applies are, and how far they reach. */
export interface ApplyRows {
  readonly rows: Schedule[]
  /** Every owed apply order is predicted shown by the seen orders and the rows. */
  readonly complete: boolean
  readonly strength: number
  /** Owed orders, and how many the seen orders and the rows are predicted to show. */
  readonly orders: { readonly shown: number, readonly owed: number }
  /** Ties seen that the load order can reverse, and how many the rows are predicted to reverse. */
  readonly ties: { readonly reversed: number, readonly reversible: number }
  /** How many rows after the seen orders every owed order would take (undefined: more than this search counts). */
  readonly rowsNeeded?: number
}

/** Finds up to `most` rows, one by one, spending `work` on each; the rows and the state they left. */
function search(space: Space, structure: ApplyStructure, strength: number, rng: Rng, most: number, seen: readonly Schedule[], work = SEARCH_WORK) {
  const table = ApplyOrders.of(structure, strength)!
  const ties = new TieReversals(structure)
  const reversible = ties.size
  const imports = importsOf(space)
  const predict = (order: readonly string[]) => predictedApplies(structure, realisable(order, structure.requires))
  for (const schedule of seen) {
    table.add(predict(importOrder(space, schedule)))
    ties.add(predict(importOrder(space, schedule)))
  }
  const cells = structure.units.length ** Math.min(strength, structure.units.length)
  const steps = Math.max(MIN_STEPS, Math.min(MAX_STEPS, Math.floor(work / Math.max(1, cells))))
  const rows: Schedule[] = []
  let last = seen.length > 0 ? importOrder(space, seen[seen.length - 1]!) : imports
  while (!table.complete() && rows.length < most) {
    const score = (order: readonly string[]) => {
      const applies = predict(order)
      return ties.count(applies) * TIE_WEIGHT + table.countNew(applies)
    }
    const starts = [[...last].reverse(), construction(structure, predict(last).reverse(), imports)]
    const found = starts.map(start => climb(start, score, rng, steps)).sort((a, b) => b.score - a.score)[0]!
    if (found.score === 0) break
    const row = realisable(found.order, structure.requires)
    table.add(predict(row))
    ties.add(predict(row))
    rows.push(expanded(space, row))
    last = row
  }
  return { rows, table, reversedTies: reversible - ties.size, reversible }
}

/** The rows; see the file's comment. Undefined when the structure is too large to track at `strength`. */
export function applyRows(space: Space, structure: ApplyStructure, strength: number, rng: Rng, budget: number, seen: readonly Schedule[]): ApplyRows | undefined {
  if (ApplyOrders.of(structure, strength) === undefined) return undefined
  const found = search(space, structure, strength, rng, budget, seen)
  const { realised, total } = found.table.counts()
  const complete = found.table.complete()
  const rowsNeeded = complete ? found.rows.length : estimatedRows(space, structure, strength, rng, seen)
  return {
    rows: found.rows,
    complete,
    strength,
    orders: { shown: realised, owed: total },
    ties: { reversed: found.reversedTies, reversible: found.reversible },
    ...rowsNeeded === undefined ? {} : { rowsNeeded },
  }
}

/** How many rows every owed order would take, by the same search without a budget, at a quarter of the effort (undefined beyond {@link MOST_ROWS_ESTIMATED}). */
function estimatedRows(space: Space, structure: ApplyStructure, strength: number, rng: Rng, seen: readonly Schedule[]): number | undefined {
  const found = search(space, structure, strength, rng, MOST_ROWS_ESTIMATED, seen, SEARCH_WORK / 4)
  return found.table.complete() ? found.rows.length : undefined
}
