import { linearExtensions } from '../space/enumerate.ts'
import { checkBudget, replayable, sampledGuarantee, upTo } from './strategy.ts'
import type { Strategy } from './strategy.ts'

/**
 * Every schedule, in lexicographic order of chain choices (depth-first, never
 * materialised), cut at the budget. Claims `exhaustive` only once the whole
 * space ran.
 */
export const exhaustive: Strategy = {
  name: 'exhaustive',
  plan(space, options) {
    const budget = checkBudget(options.budget)
    return {
      schedules: replayable(() => upTo(linearExtensions(space), budget)),
      guarantee: sampledGuarantee(space),
    }
  },
}
