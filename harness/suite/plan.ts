import type { ProcessRecord } from '../preload/protocol.js'
import { RealisedOrders } from '../space/coverage.ts'
import { deriveSeed } from '../space/random.ts'
import { scheduleKey, type Schedule, type Space } from '../space/space.ts'
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
 *
 * The reference run is a load order too. When every process that booted C
 * in it released C's entries in one and the same order, that order is the
 * plan's first row: the strategy's rows are relabelled (entry for entry) so
 * that its first row is the reference's order, which every ordering
 * guarantee survives (a covering array stays a covering array under a
 * renaming of its symbols), and the runs of the command give the rows after
 * it. A plan of budget b then costs the reference run and b − 1 runs.
 * A sharded run does not count the reference (see `countsReference`).
 */

/** The knobs a plan is made with. */
export interface PlanSettings {
  readonly strategy: StrategyName
  readonly budget: number
  readonly seed: string
  readonly depth?: number
  readonly strength: number
  /**
   * Whether the reference run's order may count as the first row (default
   * true). Shards of one run each run their own reference, which may load
   * differently; rows relabelled after different references do not add up
   * to one plan, so a sharded run counts no reference and every row is a
   * run's.
   */
  readonly countsReference?: boolean
}

/** One configuration, its discovered space and its rows. */
export interface ConfigurationPlan {
  readonly configuration: string
  /** The loader entries whose imports are decision points, in the order the reference run first requested them. */
  readonly entries: readonly string[]
  readonly space: Space
  /** The rows the runs after the reference give, in order. */
  readonly rows: readonly Schedule[]
  /** The order every process of the reference run released the entries in, counted as the plan's first row; undefined when its processes disagreed (then every row is a run's). */
  readonly reference?: Schedule
  /** How many processes of the reference run booted it. */
  readonly processes: number
  /** The covering strength the plan was made with (`--strength`): a plan cut short of it may still prove a lower one. */
  readonly strength: number
  /** What the plan claims once the reference run and `explored` runs after it ran. */
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

/**
 * The one order in which every process of `configuration` released all of
 * `entries`, or undefined when they released different orders or not every
 * entry.
 */
export function referenceOrder(records: readonly Pick<ProcessRecord, 'configuration' | 'released'>[], configuration: string, entries: readonly string[]): Schedule | undefined {
  const released = records.filter(record => record.configuration === configuration).map(record => record.released)
  const [first] = released
  if (first === undefined || first.length !== entries.length || new Set(first).size !== entries.length || !first.every(label => entries.includes(label))) return undefined
  return released.every(order => scheduleKey(order) === scheduleKey(first)) ? first : undefined
}

/** `rows` with every entry renamed so that the first row reads `first` (each row a permutation of the same entries). */
export function relabelled(rows: readonly Schedule[], first: Schedule): Schedule[] {
  const [lead] = rows
  if (lead === undefined) return []
  const rename = new Map(lead.map((label, i) => [label, first[i]!]))
  return rows.map(row => row.map(label => rename.get(label) ?? label))
}

/** The plan of every configuration the reference run booted. */
export function planConfigurations(records: readonly Pick<ProcessRecord, 'configuration' | 'requested' | 'released'>[], settings: PlanSettings): ConfigurationPlan[] {
  return [...discoveredConfigurations(records)].map(([configuration, { entries, processes }]) => {
    const space: Space = { chains: entries.map(entry => ({ plugin: entry, ops: [entry] })) }
    const plan = strategies[settings.strategy].plan(space, {
      seed: deriveSeed(settings.seed, configuration),
      budget: settings.budget,
      depth: settings.depth,
      strength: settings.strength,
    })
    const planned = [...upTo(plan.schedules, settings.budget)]
    const reference = settings.countsReference === false ? undefined : referenceOrder(records, configuration, entries)
    const counted = reference === undefined ? 0 : 1
    const rows = reference === undefined ? planned : relabelled(planned, reference).slice(1)
    return {
      configuration, entries, space, rows, processes, strength: settings.strength,
      ...reference === undefined ? {} : { reference },
      guarantee: explored => plan.guarantee(explored + counted, explored + counted >= planned.length),
    }
  })
}

/** How many runs after the reference the plans need: the most rows of any configuration. */
export function runsNeeded(plans: readonly ConfigurationPlan[]): number {
  return Math.max(0, ...plans.map(plan => plan.rows.length))
}

/** The row each configuration gets in run `k` (0-based, after the reference); one with fewer rows starts over, from the reference's order when that counted. */
export function rowsOfRun(plans: readonly ConfigurationPlan[], k: number): Record<string, Schedule> {
  return Object.fromEntries(plans.flatMap((plan) => {
    const cycle = plan.reference === undefined ? plan.rows : [plan.reference, ...plan.rows]
    const offset = plan.reference === undefined ? 0 : 1
    return cycle.length === 0 ? [] : [[plan.configuration, cycle[(k + offset) % cycle.length] as Schedule]]
  }))
}

/** Whether the realised orders of `plan`'s processes hold every relative order of `strength` entries the system allows (an entry only ever requested after another was released is taken to depend on it); false when too large to check. */
function realisedAt(plan: ConfigurationPlan, strength: number, records: readonly Pick<ProcessRecord, 'configuration' | 'requested' | 'released'>[]): boolean {
  const realised = RealisedOrders.of(plan.space, strength)
  if (realised === undefined) return false
  for (const record of records) {
    if (record.configuration !== plan.configuration) continue
    const enabled = new Map(record.requested.map(point => [point.label, point.enabledAt]))
    realised.add(record.released, record.released.map(label => enabled.get(label) ?? 0))
  }
  return realised.complete()
}

/**
 * What the runs proved for one configuration: the plan's claim, kept for a
 * t-way claim only when the realised orders of its processes (the reference
 * run's among them) hold every relative order the system allows. A plan
 * cut short of its strength (`--strength 3 --budget 8`: 8 rows of a
 * 3-way covering set of 24) claims the highest lower strength, down to 2,
 * whose every order its realised orders hold, rather than only `sampled`.
 */
export function realisedGuarantee(plan: ConfigurationPlan, explored: number, records: readonly Pick<ProcessRecord, 'configuration' | 'requested' | 'released'>[]): Guarantee {
  const claimed = plan.guarantee(explored)
  if (claimed.kind === 'exhaustive') return claimed
  // A t-way claim is checked at its strength; a cut plan's realised orders, below the plan's.
  const highest = claimed.kind === 't-way' ? claimed.strength : plan.strength - 1
  const lowest = claimed.kind === 't-way' ? claimed.strength : 2
  for (let strength = highest; strength >= lowest; strength--) {
    if (realisedAt(plan, strength, records)) return { kind: 't-way', strength }
  }
  return { kind: 'sampled' }
}

/** How many rows the plan has in all: the runs' rows, and the reference's order when it counted. */
export function planRows(plan: Pick<ConfigurationPlan, 'rows' | 'reference'>): number {
  return plan.rows.length + (plan.reference === undefined ? 0 : 1)
}
