import { predictedApplies, type ApplyStructure } from './applies.ts'
import { climb, realisable } from './apply-rows.ts'
import type { Rng } from './random.ts'

/**
 * A release order near `base` (a passing side's order) that swaps the
 * applies of the plugin pairs of `flip` (each applies in the reverse of the
 * order `base` gives it) and keeps the pairs of `keep` as `base` orders
 * them: what bisecting over the plugin pairs two sides applied in opposite
 * orders runs the test under. Found by a seeded local search scored by the
 * structure's predictions (a flipped pair outweighs every kept one); the
 * order is best effort — what the run realises decides which pairs it
 * really swapped.
 */
export function arrangedOrder(structure: ApplyStructure, base: readonly string[], flip: readonly (readonly [number, number])[], keep: readonly (readonly [number, number])[], rng: Rng, steps = 3000): string[] {
  const score = (order: readonly string[]) => {
    const at = new Map(predictedApplies(structure, realisable(order, structure.requires)).map((unit, position) => [unit, position]))
    const before = (a: number, b: number) => (at.get(a) ?? Infinity) < (at.get(b) ?? Infinity)
    return flip.filter(([a, b]) => before(b, a)).length * (keep.length + 1) + keep.filter(([a, b]) => before(a, b)).length
  }
  return realisable(climb(base, score, rng, steps).order, structure.requires)
}
