import type { Scenario } from '../scenario/types.ts'
import { spaceSize } from '../space/space.ts'
import { RealisedOrders } from '../space/coverage.ts'
import { discoverSpace } from '../explore/explore.ts'
import { ExplorationLog } from '../explore/log.ts'
import { honestGuarantee, planFor } from '../explore/plan.ts'
import { parseOrderKey } from '../explore/order-key.ts'
import { type Exploration, type ExploreOptions, type OutputGroup } from '../explore/exploration.ts'
import type { Runner } from '../runners/runner.ts'
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
  let runtime: Exploration['runtime']
  for (const output of unionOutputs(across.entries)) {
    const replayed = await runner.runOne(scenario, parseToken(output.token).schedule)
    runtime ??= replayed.runtime
    outputs.push({
      hash: output.hash,
      count: output.count,
      // Keep the hash the shard saw: judging replays it again and reports nondeterminism if the bytes moved.
      first: { index: output.first, schedule: replayed.schedule, enabledAt: replayed.enabledAt, unreached: replayed.unreached, hash: output.hash, outcome: replayed.outcome, tools: replayed.tools, stuck: replayed.stuck },
      json: replayed.json,
    })
  }
  const space = await discoverSpace(scenario, runner)
  const { plan, schedules } = planFor(scenario, options, space)
  const ran = across.entries.reduce((total, entry) => total + entry.planned, 0)
  if (across.finished && ran !== schedules.length) {
    throw new InputError([
      `the shards ran ${ran} interleavings of ${scenario.name}, but its plan has ${schedules.length}; `
        + 'was the scenario file changed since the shards were swept?',
    ])
  }
  const claim = plan.guarantee(schedules.length, true)
  const log = new ExplorationLog(space, claim.kind === 't-way' ? RealisedOrders.of(space, claim.strength) : undefined)
  for (const key of across.entries.flatMap(entry => entry.orders ?? [])) {
    const { schedule, enabledAt } = parseOrderKey(key)
    log.addOrder(schedule, enabledAt)
  }
  const divergent = outputs[1]
  return {
    space,
    size: spaceSize(space),
    ran,
    explored: log.distinct(),
    outputs,
    firstDivergenceAt: divergent ? divergent.first.index + 1 : null,
    guarantee: honestGuarantee(plan.guarantee(ran, across.finished), log.deviations, log.realised),
    coverage: log.coverage(),
    deviations: log.deviations,
    finished: across.finished,
    ...runtime === undefined ? {} : { runtime },
  }
}
