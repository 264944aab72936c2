import type { Scenario } from '../scenario/types.ts'
import { spaceSize } from '../space/space.ts'
import { planFor, type Exploration, type ExploreOptions, type OutputGroup } from '../sweep/explore.ts'
import type { Runner } from '../sweep/runner.ts'
import { parseToken } from '../token.ts'
import { unionOutputs, type ScenarioAcrossShards } from './shard-set.ts'
import { InputError } from './usage-error.ts'

/**
 * The exploration the shards of one scenario add up to, as if it had run
 * unsharded: the outputs united by hash, each distinct output's first
 * interleaving replayed once (through `runner`) for its projection, and the
 * plan's guarantee for the total explored. Rejects with an `InputError` when
 * finished shards do not add up to the plan (the scenario file changed since the sweep, say).
 */
export async function mergedExploration(scenario: Scenario, across: ScenarioAcrossShards, options: ExploreOptions, runner: Runner): Promise<Exploration> {
  const outputs: OutputGroup[] = []
  for (const output of unionOutputs(across.entries)) {
    const replayed = await runner.runOne(scenario, parseToken(output.token).schedule)
    outputs.push({
      hash: output.hash,
      count: output.count,
      // Keep the hash the shard saw: judging replays it again and reports nondeterminism if the bytes moved.
      first: { index: output.first, schedule: replayed.schedule, unreached: replayed.unreached, hash: output.hash, outcome: replayed.outcome, tools: replayed.tools, stuck: replayed.stuck },
      json: replayed.json,
    })
  }
  const { space, plan, schedules } = planFor(scenario, options)
  const explored = across.entries.reduce((total, entry) => total + entry.explored, 0)
  if (across.finished && explored !== schedules.length) {
    throw new InputError([
      `the shards explored ${explored} interleavings of ${scenario.name}, but its plan has ${schedules.length}; `
        + 'was the scenario file changed since the shards were swept?',
    ])
  }
  const divergent = outputs[1]
  return {
    size: spaceSize(space),
    planned: schedules.length,
    explored,
    outputs,
    firstDivergenceAt: divergent ? divergent.first.index + 1 : null,
    guarantee: plan.guarantee(explored, across.finished),
    finished: across.finished,
  }
}
