import type { ProcessRecord } from '../preload/protocol.js'
import { RealisedOrders } from '../space/coverage.ts'
import { deriveSeed } from '../space/random.ts'
import type { Schedule, Space } from '../space/space.ts'
import { strategies, type Guarantee, type StrategyName } from '../strategies/index.ts'
import { upTo } from '../strategies/strategy.ts'

/**
 * Schedules keyed by configuration. The reference run shows, per cordis.yml
 * the command's processes booted, the decision points they met: the
 * discovered space of that configuration (one chain per loader entry, in the
 * order first requested). Each configuration gets its own plan from the same
 * strategies `sweep` uses; run k of the command gives every process that
 * boots configuration C the k-th row of C's plan (a configuration with fewer
 * rows starts over).
 */

/** The knobs a plan is made with. */
export interface PlanSettings {
  readonly strategy: StrategyName
  readonly budget: number
  readonly seed: string
  readonly depth?: number
  readonly strength: number
}

/** One configuration, its discovered space and its rows. */
export interface ConfigurationPlan {
  readonly configuration: string
  /** The loader entries whose imports are decision points, in the order the reference run first requested them. */
  readonly entries: readonly string[]
  readonly space: Space
  readonly rows: readonly Schedule[]
  /** How many processes of the reference run booted it. */
  readonly processes: number
  readonly guarantee: (explored: number) => Guarantee
}

/** Every configuration the records show, with the entries its processes requested (first request order, across processes). */
export function discoveredConfigurations(records: readonly Pick<ProcessRecord, 'configuration' | 'requested'>[]): Map<string, { entries: string[], processes: number }> {
  const configurations = new Map<string, { entries: string[], processes: number }>()
  for (const record of records) {
    if (record.configuration === null) continue
    let known = configurations.get(record.configuration)
    if (!known) configurations.set(record.configuration, known = { entries: [], processes: 0 })
    known.processes++
    for (const { label } of record.requested) if (!known.entries.includes(label)) known.entries.push(label)
  }
  return new Map([...configurations].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** The plan of every configuration the reference run booted. */
export function planConfigurations(records: readonly Pick<ProcessRecord, 'configuration' | 'requested'>[], settings: PlanSettings): ConfigurationPlan[] {
  return [...discoveredConfigurations(records)].map(([configuration, { entries, processes }]) => {
    const space: Space = { chains: entries.map(entry => ({ plugin: entry, ops: [entry] })) }
    const plan = strategies[settings.strategy].plan(space, {
      seed: deriveSeed(settings.seed, configuration),
      budget: settings.budget,
      depth: settings.depth,
      strength: settings.strength,
    })
    const rows = [...upTo(plan.schedules, settings.budget)]
    return { configuration, entries, space, rows, processes, guarantee: explored => plan.guarantee(explored, explored >= rows.length) }
  })
}

/** How many runs of the command the plans need: the most rows of any configuration. */
export function runsNeeded(plans: readonly ConfigurationPlan[]): number {
  return Math.max(0, ...plans.map(plan => plan.rows.length))
}

/** The row each configuration gets in run `k` (0-based). */
export function rowsOfRun(plans: readonly ConfigurationPlan[], k: number): Record<string, Schedule> {
  return Object.fromEntries(plans.filter(plan => plan.rows.length > 0).map(plan => [plan.configuration, plan.rows[k % plan.rows.length] as Schedule]))
}

/**
 * What the runs proved for one configuration: the plan's claim, kept for a
 * t-way claim only when the realised orders of its processes hold every
 * relative order the system allows (an entry only ever requested after
 * another was released is taken to depend on it).
 */
export function realisedGuarantee(plan: ConfigurationPlan, explored: number, records: readonly Pick<ProcessRecord, 'configuration' | 'requested' | 'released'>[]): Guarantee {
  const claimed = plan.guarantee(explored)
  if (claimed.kind !== 't-way') return claimed
  const realised = RealisedOrders.of(plan.space, claimed.strength)
  if (realised === undefined) return { kind: 'sampled' }
  for (const record of records) {
    if (record.configuration !== plan.configuration) continue
    const enabled = new Map(record.requested.map(point => [point.label, point.enabledAt]))
    realised.add(record.released, record.released.map(label => enabled.get(label) ?? 0))
  }
  return realised.complete() ? claimed : { kind: 'sampled' }
}
