import type { Scenario } from '../scenario/scenario.ts'
import { InputError } from '../scenario/errors.ts'
import type { Runner } from '../runners/runner.ts'
import { parseToken } from '../token.ts'
import { discoverSpace, explorationLog, explorationOf } from '../explore/explore.ts'
import type { Exploration, OutputGroup } from '../explore/exploration.ts'
import { parseOrderKey } from '../explore/order-key.ts'
import { planFor, type PlanSettings } from '../explore/plan.ts'
import { unionOutputs, type ScenarioAcrossShards } from './shard-set.ts'

/**
 * The exploration the shards of one scenario add up to, as if it had run
 * unsharded: the outputs united by hash, each distinct output's first
 * interleaving replayed once (through `runner`) for its projection, and the
 * plan's guarantee for the total explored. Rejects with an `InputError` when
 * finished shards do not add up to the plan (the scenario file changed since the sweep, say).
 */
export async function mergedExploration(scenario: Scenario, across: ScenarioAcrossShards, settings: PlanSettings, runner: Runner): Promise<Exploration> {
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
  const { plan, schedules } = planFor(scenario, settings, space)
  const ran = across.entries.reduce((total, entry) => total + entry.planned, 0)
  if (across.finished && ran !== schedules.length) {
    throw new InputError([
      `the shards ran ${ran} interleavings of ${scenario.name}, but its plan has ${schedules.length}; `
        + 'was the scenario file changed since the shards were swept?',
    ])
  }
  const log = explorationLog(space, plan, schedules.length)
  for (const key of across.entries.flatMap(entry => entry.orders ?? [])) {
    const { schedule, enabledAt } = parseOrderKey(key)
    log.addOrder(schedule, enabledAt)
  }
  const divergent = outputs[1]
  return {
    ...explorationOf(space, plan, log, ran, across.finished),
    outputs,
    firstDivergenceAt: divergent ? divergent.first.index + 1 : null,
    ...runtime === undefined ? {} : { runtime },
  }
}
