import type { Scenario } from '../scenario/types.ts'
import { SERVICE_ENTRY_IDS } from '../../src/service-entries.ts'
import { spaceOf, spaceSize, type Space } from '../space/space.ts'
import { strategies, type Guarantee, type StrategyName } from '../strategies/index.ts'
import { upTo } from '../strategies/strategy.ts'
import { deriveSeed } from '../random.ts'
import type { RunRecord, Runner } from './runner.ts'
import { inShard, type Shard } from './shard.ts'

/** How to explore: the knobs of `loadrace sweep`. */
export interface ExploreOptions {
  strategy: StrategyName
  budget: number
  seed: string
  depth?: number
  strength?: number
  shard?: Shard
  signal?: AbortSignal
  /** Called after each interleaving with the number explored so far and the number planned. */
  onProgress?: (explored: number, planned: number) => void
}

/** One distinct output of an exploration. */
export interface OutputGroup {
  hash: string
  count: number
  /** The earliest interleaving (in exploration order) that produced it. */
  first: RunRecord
  /** Its projection's bytes. */
  json: string
}

export interface Exploration {
  size: bigint
  /** How many interleavings were planned (in this shard). */
  planned: number
  /** How many ran. */
  explored: number
  /** Distinct outputs, ordered by their first appearance (`first.index` is the exploration position). */
  outputs: OutputGroup[]
  /** 1-based position of the first interleaving whose bytes differ from the first one's; null when none did. */
  firstDivergenceAt: number | null
  guarantee: Guarantee
  /** False when the exploration was interrupted before the plan ended. */
  finished: boolean
}

/** The service entries that race with the plugins when a scenario says `services: entries`. */
export function serviceEntryIds(scenario: Scenario): readonly string[] {
  if (scenario.services !== 'entries') return []
  return scenario.app === 'none' ? SERVICE_ENTRY_IDS.none : SERVICE_ENTRY_IDS.app
}

/** The interleaving space of a scenario: one chain per loader entry (services first when they race), one op per registration batch. */
export function spaceOfScenario(scenario: Scenario): Space {
  return spaceOf([
    ...serviceEntryIds(scenario).map(id => ({ id, batches: 1 })),
    ...scenario.plugins.map(spec => ({ id: spec.id, batches: spec.kind === 'tools' ? spec.batches.length : 1 })),
  ])
}

/** The schedules a strategy plans for a scenario (before sharding), capped by the budget. */
export function planFor(scenario: Scenario, options: ExploreOptions) {
  const space = spaceOfScenario(scenario)
  const plan = strategies[options.strategy].plan(space, {
    seed: deriveSeed(options.seed, scenario.name),
    budget: options.budget,
    depth: options.depth,
    strength: options.strength,
  })
  return { space, plan, schedules: [...upTo(plan.schedules, options.budget)] }
}

/**
 * Runs a scenario's planned interleavings (this shard's part of them) and
 * groups them by output. Records are ordered by exploration position whatever
 * order the runner completed them in, so the result does not depend on the
 * number of workers.
 */
export async function explore(scenario: Scenario, runner: Runner, options: ExploreOptions): Promise<Exploration> {
  const { space, plan, schedules } = planFor(scenario, options)
  const positions: number[] = []
  schedules.forEach((_, position) => { if (inShard(position, options.shard)) positions.push(position) })
  const planned = positions.map(position => schedules[position]!)
  const records: RunRecord[] = []
  const jsonByHash = new Map<string, string>()
  await runner.runAll(scenario, planned, (record) => {
    if (record.json !== undefined && !jsonByHash.has(record.hash)) jsonByHash.set(record.hash, record.json)
    records.push({ ...record, index: positions[record.index]!, json: undefined })
    options.onProgress?.(records.length, planned.length)
  }, options.signal)
  records.sort((a, b) => a.index - b.index)

  const outputs = new Map<string, OutputGroup>()
  for (const record of records) {
    const group = outputs.get(record.hash)
    if (group) group.count++
    else outputs.set(record.hash, { hash: record.hash, count: 1, first: record, json: jsonByHash.get(record.hash)! })
  }
  const baseline = records[0]?.hash
  const divergent = records.findIndex(record => record.hash !== baseline)
  const finished = records.length === planned.length
  return {
    size: spaceSize(space),
    planned: planned.length,
    explored: records.length,
    outputs: [...outputs.values()],
    firstDivergenceAt: divergent < 0 ? null : divergent + 1,
    // A shard alone proves nothing about the whole space; merging the shards restores the plan's guarantee.
    guarantee: options.shard && options.shard.count > 1 ? { kind: 'sampled' } : plan.guarantee(records.length, finished),
    finished,
  }
}
