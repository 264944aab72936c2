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

/** Plugin pairs that move together (one pair of classes), each (first, second) as the passing side applied them. */
export type PairGroup = readonly (readonly [number, number])[]

/** Which of `groups` an apply order (unit indices, as applied) flips: a group is flipped when one of its pairs applied second first. */
export function flippedGroups(applied: readonly number[], groups: readonly PairGroup[]): Set<number> {
  const at = new Map(applied.map((unit, position) => [unit, position]))
  const flipped = new Set<number>()
  groups.forEach((group, index) => {
    if (group.some(([a, b]) => (at.get(b) ?? Infinity) < (at.get(a) ?? Infinity))) flipped.add(index)
  })
  return flipped
}

/**
 * An order near `base` that the structure predicts flips some of `groups`
 * and keeps the rest, as near half and half of their weight as it can
 * (`weights`: how likely each group is to hold the race; equal when not
 * given, so half and half of the groups): arranged toward the heaviest
 * groups up to half the weight, the rest, then seeded shuffles' halves
 * (`tries` in all), each judged by what the structure predicts it flips,
 * since an arrangement aimed at one half often drags pairs of the other
 * along. The most even split is kept; undefined when no arrangement is
 * predicted to split the groups at all (no run could tell them apart).
 */
export function splittingOrder(structure: ApplyStructure, base: readonly string[], groups: readonly PairGroup[], rng: Rng, tries = 6, weights: readonly number[] = groups.map(() => 1)): { order: string[], flips: Set<number> } | undefined {
  const indices = groups.map((_, index) => index)
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  const massOf = (chosen: Iterable<number>) => [...chosen].reduce((sum, index) => sum + weights[index]!, 0)
  /** The first of `ranked` up to half the weight (at least one). */
  const halfOf = (ranked: readonly number[]) => {
    const aimed = new Set<number>()
    for (const index of ranked) {
      if (aimed.size > 0 && massOf(aimed) + weights[index]! / 2 > total / 2) break
      aimed.add(index)
    }
    return aimed
  }
  const heaviest = [...indices].sort((a, b) => weights[b]! - weights[a]!)
  let best: { order: string[], flips: Set<number>, evenness: number } | undefined
  for (let attempt = 0; attempt < tries; attempt++) {
    const ranked = attempt === 0 ? heaviest : attempt === 1 ? [...heaviest].reverse() : rng.shuffle([...indices])
    const aimed = halfOf(ranked)
    const pairsOf = (keep: boolean) => indices.filter(index => aimed.has(index) !== keep).flatMap(index => groups[index]!)
    const order = arrangedOrder(structure, base, pairsOf(false), pairsOf(true), rng)
    const flips = flippedGroups(predictedApplies(structure, realisable(order, structure.requires)), groups)
    const evenness = Math.min(massOf(flips), total - massOf(flips))
    if (flips.size > 0 && flips.size < groups.length && evenness > (best?.evenness ?? 0)) best = { order, flips, evenness }
    if (evenness >= Math.min(massOf(aimed), total - massOf(aimed)) * 0.999) break
  }
  return best === undefined ? undefined : { order: best.order, flips: best.flips }
}
