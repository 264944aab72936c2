import { realisedGuarantee, realisedIn } from '../explore/guarantee.ts'
import { planSpace, type PlanSettings } from '../explore/plan.ts'
import type { ProcessRecord } from '../preload/protocol.js'
import { deviation } from '../space/discovered.ts'
import { scheduleKey, type Schedule, type Space } from '../space/space.ts'
import type { Guarantee, Plan } from '../strategies/index.ts'

/**
 * Schedules keyed by configuration. The natural run shows, per cordis.yml
 * the command's processes booted, the decision points they met: the
 * discovered space of that configuration (one chain per loader entry, in the
 * order first requested). Each configuration is planned by the planner the
 * sweep's scenarios use (`explore/plan.ts`); run k of the command gives
 * every process that boots configuration C the k-th row of C's plan (a
 * configuration with fewer rows starts over).
 *
 * The natural run is a load order too, and that is what test mode adds of
 * its own. When every process that booted C in it released C's entries in
 * one and the same order, that order is the plan's first row: the
 * strategy's rows are relabelled (entry for entry) so that its first row is
 * the natural order, which every ordering guarantee survives (a covering
 * array stays a covering array under a renaming of its symbols), and the
 * runs of the command give the rows after it. A plan of b rows then costs
 * the natural run and b − 1 runs. A sharded run does not count the natural
 * order (see `countsNatural`).
 */

/** How a run's configurations are planned: the settings of every plan, and what test mode adds. */
export interface ConfigurationSettings extends PlanSettings {
  /**
   * Whether the natural run's order may count as the first row (default
   * true). Shards of one run each run their own natural run, which may load
   * differently; rows relabelled after different natural orders do not add
   * up to one plan, so a sharded run counts none and every row is a run's.
   */
  readonly countsNatural?: boolean
}

/** One configuration, its discovered space and its rows. */
export interface ConfigurationPlan {
  readonly configuration: string
  /** The loader entries whose imports are decision points, in the order the natural run first requested them. */
  readonly entries: readonly string[]
  readonly space: Space
  /** The rows the runs after the natural run give, in order. */
  readonly rows: readonly Schedule[]
  /** The order every process of the natural run released the entries in, counted as the plan's first row; undefined when its processes disagreed (then every row is a run's). */
  readonly natural?: Schedule
  /** How many processes of the natural run booted it. */
  readonly processes: number
  /** The strategy's plan: what it claims, and the strength it aims at. */
  readonly plan: Plan
}

/** The processes' records, as planning reads them. */
type Records = readonly Pick<ProcessRecord, 'configuration' | 'requested' | 'released'>[]

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
export function naturalOrder(records: readonly Pick<ProcessRecord, 'configuration' | 'released'>[], configuration: string, entries: readonly string[]): Schedule | undefined {
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

/** The plan of every configuration the natural run booted. */
export function planConfigurations(records: Records, settings: ConfigurationSettings): ConfigurationPlan[] {
  return [...discoveredConfigurations(records)].map(([configuration, { entries, processes }]) => {
    const space: Space = { chains: entries.map(entry => ({ plugin: entry, ops: [entry] })) }
    const { plan, schedules } = planSpace(configuration, space, settings)
    const natural = settings.countsNatural === false ? undefined : naturalOrder(records, configuration, entries)
    const rows = natural === undefined ? schedules : relabelled(schedules, natural).slice(1)
    return { configuration, entries, space, rows, processes, plan, ...natural === undefined ? {} : { natural } }
  })
}

/** How many rows the plan has in all: the runs' rows, and the natural order when it counted. */
export function rowCount(plan: Pick<ConfigurationPlan, 'rows' | 'natural'>): number {
  return plan.rows.length + (plan.natural === undefined ? 0 : 1)
}

/** How many runs after the natural run the plans need: the most rows of any configuration. */
export function runsNeeded(plans: readonly ConfigurationPlan[]): number {
  return Math.max(0, ...plans.map(plan => plan.rows.length))
}

/** The row each configuration gets in run `k` (0-based, after the natural run); one with fewer rows starts over, from the natural order when that counted. */
export function rowsOfRun(plans: readonly ConfigurationPlan[], k: number): Record<string, Schedule> {
  return Object.fromEntries(plans.flatMap((plan) => {
    const cycle = plan.natural === undefined ? plan.rows : [plan.natural, ...plan.rows]
    const offset = plan.natural === undefined ? 0 : 1
    return cycle.length === 0 ? [] : [[plan.configuration, cycle[(k + offset) % cycle.length] as Schedule]]
  }))
}

/**
 * What the runs proved for one configuration, by the one rule of
 * `explore/guarantee.ts`: the plan's claim once the natural run and
 * `explored` runs after it ran, checked on the realised orders of every
 * process that booted it (the natural run's among them).
 */
export function configurationGuarantee(plan: ConfigurationPlan, explored: number, records: Records): Guarantee {
  const own = records.filter(record => record.configuration === plan.configuration)
  const counted = explored + (plan.natural === undefined ? 0 : 1)
  const runs = own.map((record) => {
    const enabled = new Map(record.requested.map(point => [point.label, point.enabledAt]))
    return { schedule: record.released, enabledAt: record.released.map(label => enabled.get(label) ?? 0) }
  })
  return realisedGuarantee(plan.plan.guarantee(counted, counted >= rowCount(plan)), {
    deviated: own.some(record => deviation(plan.space, record.released) !== undefined),
    aimed: plan.plan.strength,
    realisedAt: strength => realisedIn(plan.space, strength, runs),
  })
}
