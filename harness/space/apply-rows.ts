import { ApplyOrders } from './apply-orders.ts'
import { predictedApplies, type ApplyStructure } from './applies.ts'
import type { Rng } from './random.ts'
import type { Schedule, Space } from './space.ts'

/**
 * Release orders that make the units of an apply structure apply in every
 * relative order of every t of them that the load order can give, after the
 * orders already seen (a natural run's): few rows, each found by a seeded
 * local search over the order of the imports, scored by how many owed apply
 * orders it would newly show (predicted by the structure). The search starts
 * from the reverse of what was seen and from a construction that releases,
 * unit by unit in the reverse of the order they applied in, what each needs
 * — the entries it shares with other units first, its own last — so the
 * first row reverses as many of the pairs the seen order left reversible as
 * it can. Rows stop when every owed order is predicted, when a row would add
 * none, or at the budget.
 */

/** Rough bound on the work (owed-order cells visited) spent on the search for one row. */
const SEARCH_WORK = 4_000_000
const MIN_STEPS = 60
const MAX_STEPS = 4000

/** The chains' first operations: the imports the search orders. */
function importsOf(space: Space): string[] {
  return space.chains.map(chain => chain.ops[0]!)
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

/** Improves `start` by seeded swaps and moves while its score grows (ties accepted, to cross plateaus). */
function climb(start: readonly string[], score: (order: readonly string[]) => number, rng: Rng, steps: number): { order: string[], score: number } {
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

/** What the rows of a plan over applies are, and whether they would show every owed order. */
export interface ApplyRows {
  readonly rows: Schedule[]
  /** Every owed apply order is predicted shown by the seen orders and the rows. */
  readonly complete: boolean
  readonly strength: number
}

/** The rows; see the file's comment. Undefined when the structure is too large to track at `strength`. */
export function applyRows(space: Space, structure: ApplyStructure, strength: number, rng: Rng, budget: number, seen: readonly Schedule[]): ApplyRows | undefined {
  const table = ApplyOrders.of(structure, strength)
  if (table === undefined) return undefined
  const imports = importsOf(space)
  const predict = (order: readonly string[]) => predictedApplies(structure, order)
  for (const schedule of seen) table.add(predict(importOrder(space, schedule)))
  const cells = structure.units.length ** Math.min(strength, structure.units.length)
  const steps = Math.max(MIN_STEPS, Math.min(MAX_STEPS, Math.floor(SEARCH_WORK / Math.max(1, cells))))
  const rows: Schedule[] = []
  let last = seen.length > 0 ? importOrder(space, seen[seen.length - 1]!) : imports
  while (!table.complete() && rows.length < budget) {
    const reversedApplies = predict(last).reverse()
    const starts = [[...last].reverse(), construction(structure, reversedApplies, imports)]
    const score = (order: readonly string[]) => table.countNew(predict(order))
    const found = starts.map(start => climb(start, score, rng, steps)).sort((a, b) => b.score - a.score)[0]!
    if (found.score === 0) break
    table.add(predict(found.order))
    rows.push(expanded(space, found.order))
    last = found.order
  }
  return { rows, complete: table.complete(), strength }
}
