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

/** The schedules a strategy plans for a scenario (before sharding), capped by the budget (and the scenario's own `budget:`). */
export function planFor(scenario: Scenario, options: ExploreOptions) {
  const space = spaceOfScenario(scenario)
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
 * Runs a scenario's planned interleavings (this shard's part of them) and
 * groups them by output as they complete: one group per distinct output, its
 * count and its earliest interleaving (by exploration position, whatever order
 * the runner completed them in, so the result does not depend on the number
 * of workers). Nothing per interleaving is kept beyond that, so memory stays
 * flat however large the exploration.
 */
export async function explore(scenario: Scenario, runner: Runner, options: ExploreOptions): Promise<Exploration> {
  const { space, plan, schedules } = planFor(scenario, options)
  const positions: number[] = []
  schedules.forEach((_, position) => { if (inShard(position, options.shard)) positions.push(position) })
  const planned = positions.map(position => schedules[position]!)
  const groups = new Map<string, OutputGroup>()
  const ran = new Uint8Array(planned.length)
  let explored = 0
  await runner.runAll(scenario, planned, (record) => {
    ran[record.index] = 1
    explored++
    const first: RunRecord = { ...record, index: positions[record.index]!, json: undefined }
    const group = groups.get(record.hash)
    if (!group) {
      groups.set(record.hash, { hash: record.hash, count: 1, first, json: record.json! })
    } else {
      group.count++
      if (first.index < group.first.index) group.first = first
      if (group.json === undefined && record.json !== undefined) group.json = record.json
    }
    options.onProgress?.(explored, planned.length)
  }, options.signal)

  const outputs = [...groups.values()].sort((a, b) => a.first.index - b.first.index)
  const divergent = outputs[1]?.first.index
  const finished = explored === planned.length
  return {
    size: spaceSize(space),
    planned: planned.length,
    explored,
    outputs,
    // How many explored interleavings, in exploration order, up to and including the first that differs from the first one.
    firstDivergenceAt: divergent === undefined ? null : countRanUpTo(ran, positions, divergent),
    // A shard alone proves nothing about the whole space; merging the shards restores the plan's guarantee.
    guarantee: options.shard && options.shard.count > 1 ? { kind: 'sampled' } : plan.guarantee(explored, finished),
    finished,
  }
}

/** How many of the shard's planned positions up to `position` ran. */
function countRanUpTo(ran: Uint8Array, positions: readonly number[], position: number): number {
  let count = 0
  for (let i = 0; i < positions.length && positions[i]! <= position; i++) count += ran[i]!
  return count
}
