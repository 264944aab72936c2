import type { Scenario } from '../scenario/scenario.ts'
import type { Space } from '../space/space.ts'
import type { RealisedOrders } from '../space/coverage.ts'
import { deriveSeed } from '../space/random.ts'
import { strategies, type Guarantee } from '../strategies/index.ts'
import type { Settings } from '../settings/settings.ts'
import { spaceOfScenario } from './declared-space.ts'
import type { Deviation } from './exploration.ts'

/** The settings a plan is made with. */
export type PlanSettings = Pick<Settings, 'strategy' | 'budget' | 'seed' | 'depth' | 'strength' | 'shard'>

/** The schedules a strategy plans over `space` (by default the declared one), before sharding, capped by the budget (and the scenario's own `budget:`), which the strategy is given. */
export function planFor(scenario: Scenario, settings: PlanSettings, space: Space = spaceOfScenario(scenario)) {
  // A scenario's own budget caps the sweep's.
  const budget = Math.min(settings.budget, scenario.budget ?? settings.budget)
  const plan = strategies[settings.strategy].plan(space, {
    seed: deriveSeed(settings.seed, scenario.name),
    budget,
    depth: settings.depth,
    strength: settings.strength,
  })
  // Every strategy stops at the budget it is given (`Plan.schedules`): nothing is cut here.
  return { space, plan, schedules: [...plan.schedules] }
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

