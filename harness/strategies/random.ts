import { createRng, deriveSeed } from '../space/random.ts'
import type { Rng } from '../space/random.ts'
import { distinctDraws } from '../space/distinct.ts'
import { ownerMultiset, scheduleFromOwners } from '../space/space.ts'
import type { Schedule, Space } from '../space/space.ts'
import { checkBudget, replayable, sampledGuarantee } from './strategy.ts'
import type { Strategy } from './strategy.ts'

/**
 * A uniformly random schedule: shuffling the multiset of chain owners (one
 * entry per operation) and numbering each chain's operations in order is a
 * bijection onto the linear extensions, so every schedule is equally likely.
 */
export function uniformSchedule(space: Space, rng: Rng): Schedule {
  return scheduleFromOwners(space, rng.shuffle(ownerMultiset(space)))
}

/** Seeded uniform sampling without repeats, up to the budget or until the space is used up. */
export const random: Strategy = {
  name: 'random',
  plan(space, options) {
    const budget = checkBudget(options.budget)
    return {
      schedules: replayable(() => {
        const rng = createRng(deriveSeed(options.seed, 'random'))
        return distinctDraws(space, () => uniformSchedule(space, rng), { limit: budget })
      }),
      guarantee: sampledGuarantee(space),
    }
  },
}
