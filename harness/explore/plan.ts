import type { Scenario } from '../scenario/types.ts'
import type { Space } from '../space/space.ts'
import type { RealisedOrders } from '../space/coverage.ts'
import { deriveSeed } from '../space/random.ts'
import { strategies, type Guarantee } from '../strategies/index.ts'
import { upTo } from '../strategies/strategy.ts'
import { spaceOfScenario } from './declared-space.ts'
import type { Deviation, ExploreOptions } from './exploration.ts'

/** The schedules a strategy plans over `space` (by default the declared one), before sharding, capped by the budget (and the scenario's own `budget:`). */
export function planFor(scenario: Scenario, options: ExploreOptions, space: Space = spaceOfScenario(scenario)) {
  // A scenario's own budget caps the sweep's.
  const budget = Math.min(options.budget, scenario.budget ?? options.budget)
  const plan = strategies[options.strategy].plan(space, {
    seed: deriveSeed(options.seed, scenario.name),
    budget,
    depth: options.depth,
    strength: options.strength,
  })
  return { space, plan, schedules: [...upTo(plan.schedules, budget)] }
}

/**
 * What an exploration proved, in terms of what really ran: the plan's claim,
 * kept only if no run left the discovered space and, for a t-way claim, only
 * if the effective orders realised every chain-consistent t-order.
 */
export function honestGuarantee(claimed: Guarantee, deviations: Deviation | null, realised: RealisedOrders | undefined): Guarantee {
  if (deviations !== null) return { kind: 'sampled' }
  if (claimed.kind === 't-way' && !realised?.complete()) return { kind: 'sampled' }
  return claimed
}

