import type { Scenario } from '../scenario/scenario.ts'
import { spaceOf, type Space } from '../space/space.ts'
import { serviceEntryIds as raceEntryIds } from '../targets/catalogue.ts'

/** The service entries that race with the plugins when a scenario says `services: entries`. */
export function serviceEntryIds(scenario: Scenario): readonly string[] {
  if (scenario.services !== 'entries') return []
  return raceEntryIds(scenario.app)
}

/** The interleaving space the scenario file declares: one chain per loader entry (services first when they race), one op per registration batch. */
export function spaceOfScenario(scenario: Scenario): Space {
  return spaceOf([
    ...serviceEntryIds(scenario).map(id => ({ id, batches: 1 })),
    ...scenario.plugins.map(spec => ({ id: spec.id, batches: spec.kind === 'tools' ? spec.batches.length : 1 })),
  ])
}

