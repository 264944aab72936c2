import { predictedApplies, type ApplyStructure } from './applies.ts'
import { climb, realisable } from './apply-rows.ts'
import type { Rng } from './random.ts'

/**
 * A release order that swaps the applies of two plugins and nothing else
 * that matters: near `base` (a passing side's order), under which unit
 * `pair[1]` applies before unit `pair[0]` (the reverse of `base`) while
 * every pair of `keep` (the other pairs a swap moved) keeps the order
 * `base` gives it. Running a test under it tells whether that one swap is
 * what flips it. Undefined when the structure predicts no such order.
 */
export function isolatingOrder(structure: ApplyStructure, base: readonly string[], pair: readonly [number, number], keep: readonly (readonly [number, number])[], rng: Rng, steps = 3000): string[] | undefined {
  const before = (order: readonly number[], a: number, b: number) => {
    const at = new Map(order.map((unit, position) => [unit, position]))
    return (at.get(a) ?? Infinity) < (at.get(b) ?? Infinity)
  }
  const score = (order: readonly string[]) => {
    const applies = predictedApplies(structure, realisable(order, structure.requires))
    const swapped = before(applies, pair[1], pair[0]) ? keep.length + 1 : 0
    return swapped + keep.filter(([a, b]) => before(applies, a, b)).length
  }
  const found = climb(base, score, rng, steps)
  const order = realisable(found.order, structure.requires)
  // The swap is worth more than every kept pair together, so the best score is reached only with the swap and every pair kept.
  return found.score === 2 * keep.length + 1 ? order : undefined
}
