import { createRng, deriveSeed } from '../space/random.ts'
import { coveringSchedules } from '../space/covering.ts'
import type { Schedule, Space } from '../space/space.ts'
import { checkBudget, coversSpace, DEFAULT_STRENGTH, replayable, upTo, wholeOption } from './strategy.ts'
import type { Guarantee, Strategy } from './strategy.ts'

/** The covering rows for `space` at `strength`, seeded from the run seed. */
export function coverRows(space: Space, strength: number, seed: string): Schedule[] {
  return coveringSchedules(space, strength, createRng(deriveSeed(seed, `cover:${strength}`)))
}

/**
 * What running the first `explored` schedules of a plan that starts with
 * `rows` (a `strength`-way covering set, or `undefined` when none fit) proved.
 */
export function coverGuarantee(space: Space, rows: readonly Schedule[], strength: number | undefined, explored: number): Guarantee {
  if (coversSpace(space, explored)) return { kind: 'exhaustive' }
  if (strength !== undefined && explored >= rows.length) return { kind: 't-way', strength }
  return { kind: 'sampled' }
}

/**
 * A t-way sequence covering set (default t = 3): every relative order of every
 * t operations that the chains allow occurs in some schedule. Cut at the
 * budget, it only claims `sampled`.
 */
export const cover: Strategy = {
  name: 'cover',
  plan(space, options) {
    const budget = checkBudget(options.budget)
    const strength = wholeOption('strength', options.strength, DEFAULT_STRENGTH)
    const rows = coverRows(space, strength, options.seed)
    return {
      schedules: replayable(() => upTo(rows, budget)),
      guarantee: (explored) => coverGuarantee(space, rows, strength, explored),
      strength,
    }
  },
}
