import type { Scenario } from '../scenario/scenario.ts'
import { parseOp, type Schedule } from '../space/space.ts'
import { discoverSpace } from '../explore/explore.ts'
import type { Runner } from '../runners/runner.ts'
import { InputError } from '../scenario/errors.ts'

/**
 * Checks that a token's order can be replayed on its scenario: it names only
 * operations of the scenario's interleaving space, and every one of them (a
 * replay releases exactly the operations it names, so a shorter order would
 * leave plugins unreleased and replay as stuck). The operations are those of
 * the discovered space (`discoverSpace`: one run in declaration order shows
 * the timers each plugin sets up); a timer of a known chain that run did not
 * set up is accepted too, since which timers a plugin sets up may depend on
 * the order. Throws an `InputError` naming what is wrong and the operations allowed.
 */
export async function checkReplayable(scenario: Scenario, schedule: Schedule, runner: Runner): Promise<void> {
  const space = await discoverSpace(scenario, runner)
  const ops = space.chains.flatMap(chain => chain.ops)
  const chains = new Set(space.chains.map(chain => chain.plugin))
  const allowed = `operations: ${ops.join(', ')}`
  const known = (op: string) => {
    if (ops.includes(op)) return true
    const parsed = parseOp(op)
    return parsed?.kind === 'timer' && chains.has(parsed.plugin)
  }
  const stranger = schedule.find(op => !known(op))
  if (stranger !== undefined) {
    throw new InputError([`operation "${stranger}" is not an operation of scenario "${scenario.name}" (${allowed})`])
  }
  const missing = ops.filter(op => !schedule.includes(op))
  if (missing.length > 0) {
    throw new InputError([`the order is incomplete: it names ${schedule.length} of the ${ops.length} operations of scenario "${scenario.name}", missing ${missing.join(', ')} (${allowed}; a token names every one)`])
  }
}
