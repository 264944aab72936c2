import type { Scenario } from '../scenario/types.ts'
import type { Schedule } from '../space/space.ts'
import { spaceOfScenario } from '../sweep/explore.ts'
import { InputError } from './usage-error.ts'

/**
 * Checks that a token's order can be replayed on its scenario: it names only
 * operations of the scenario's interleaving space, and every one of them (a
 * replay releases exactly the operations it names, so a shorter order would
 * leave plugins unreleased and replay as stuck). The operations come from
 * `spaceOfScenario`, the one function that says what a scenario's
 * interleavings are made of. Throws an `InputError` naming what is wrong and
 * the operations allowed.
 */
export function checkReplayable(scenario: Scenario, schedule: Schedule): void {
  const ops = spaceOfScenario(scenario).chains.flatMap(chain => chain.ops)
  const allowed = `operations: ${ops.join(', ')}`
  const stranger = schedule.find(op => !ops.includes(op))
  if (stranger !== undefined) {
    throw new InputError([`operation "${stranger}" is not an operation of scenario "${scenario.name}" (${allowed})`])
  }
  const missing = ops.filter(op => !schedule.includes(op))
  if (missing.length > 0) {
    throw new InputError([`the order is incomplete: it names ${schedule.length} of the ${ops.length} operations of scenario "${scenario.name}", missing ${missing.join(', ')} (${allowed}; a token names every one)`])
  }
}
