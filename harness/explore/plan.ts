import type { Scenario } from '../scenario/scenario.ts'
import type { Schedule, Space } from '../space/space.ts'
import { deriveSeed } from '../space/random.ts'
import { strategies } from '../strategies/index.ts'
import type { Settings } from '../settings/settings.ts'
import { spaceOfScenario } from './declared-space.ts'

/** The settings a plan is made with. */
export type PlanSettings = Pick<Settings, 'strategy' | 'budget' | 'seed' | 'depth' | 'strength' | 'shard'>

/**
 * The schedules a strategy plans over `space`, seeded by the space's `name`
 * (a scenario's, a configuration's): the strategy is given the budget, capped
 * by `cap` (a scenario's own `budget:`), and stops there itself
 * (`Plan.schedules`): nothing is cut here. `seen`: schedules already run,
 * which a plan that can (`Plan.countsSeen`) counts and does not repeat. The sweep's scenarios and
 * `loadrace test`'s configurations are planned by this one function.
 */
export function planSpace(name: string, space: Space, settings: PlanSettings, cap?: number, seen?: readonly Schedule[]) {
  const budget = Math.min(settings.budget, cap ?? settings.budget)
  const plan = strategies[settings.strategy].plan(space, {
    seed: deriveSeed(settings.seed, name),
    budget,
    depth: settings.depth,
    strength: settings.strength,
    ...seen === undefined ? {} : { seen },
  })
  return { space, plan, schedules: [...plan.schedules] }
}

/** A scenario's plan over `space` (by default its declared one), its own `budget:` capping the sweep's. */
export function planFor(scenario: Scenario, settings: PlanSettings, space: Space = spaceOfScenario(scenario)) {
  return planSpace(scenario.name, space, settings, scenario.budget)
}
