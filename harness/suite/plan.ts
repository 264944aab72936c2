import { realisedGuarantee, realisedIn } from '../explore/guarantee.ts'
import { planSpace, type PlanSettings } from '../explore/plan.ts'
import type { BootRecord } from '../preload/protocol.js'
import { ApplyOrders, TieReversals } from '../space/apply-orders.ts'
import { applyStructure, canonicalStructure, entryRequirements, realisedApplies, unexplained, withTiesOf, type AppliesRun, type ApplyStructure } from '../space/applies.ts'
import { deviation } from '../space/discovered.ts'
import { scheduleKey, type Schedule, type Space } from '../space/space.ts'
import { strategies, type Guarantee, type Plan } from '../strategies/index.ts'
import { loadedAlike } from './realised.ts'

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
 *
 * The natural run also shows when each plugin applied and what it waited
 * for (`space/applies.ts`): the configuration's apply structure, which a
 * plan over applies (`--strategy applies`, the default) aims at. Such a plan
 * counts the natural run's orders itself (`Plan.countsSeen`), when every
 * process applied the plugins alike, and its rows follow.
 */

/** How a run's configurations are planned: the settings of every plan, and what test mode adds. */
export interface ConfigurationSettings extends PlanSettings {
  /**
   * Whether the natural run's order may count as the first row (default
   * true). Shards of one run each run their own natural run, which may load
   * differently; rows relabelled after different natural orders do not add
   * up to one plan, so a sharded run counts none and every row is a run's.
   * It also plans from what every shard's natural run shares: the entries
   * by name, and the apply structure without the order its plugins happened
   * to apply in or the ties it showed (`canonicalStructure`), so that row k
   * of one shard's plan is row k of every other's.
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
  /**
   * The natural run's orders the plan counts as its first rows: the one
   * full order of its entries every process that booted the configuration
   * released, or, for a plan that counts what was seen (`Plan.countsSeen`),
   * every order they released when they loaded alike (`loadedAlike`: their
   * plugins applied in one order). None when they did not (each test saw
   * only its own), and none for a sharded run.
   */
  readonly counted: readonly Schedule[]
  /** How many processes of the natural run booted it. */
  readonly processes: number
  /** The strategy's plan: what it claims, and the strength it aims at. */
  readonly plan: Plan
}

/** The processes' records, as planning reads them. */
type Records = readonly Pick<BootRecord, 'configuration' | 'requested' | 'released' | 'applies'>[]

/** The processes' records, as a claim reads them: which followed a row, and which loaded as the machine would. */
type ProofRecords = readonly Pick<BootRecord, 'configuration' | 'requested' | 'released' | 'applies' | 'mode'>[]

/**
 * The processes whose orders are evidence for a configuration's claim: every
 * one when the plan counted the natural run's orders (every test saw them),
 * else only those that followed a row, which every test of the configuration
 * booted under. Processes that loaded as the machine would each showed their
 * own test an order the others may never have seen.
 */
function evidenceOf(plan: Pick<ConfigurationPlan, 'configuration' | 'counted'>, records: ProofRecords): ProofRecords {
  const own = records.filter(record => record.configuration === plan.configuration)
  return plan.counted.length > 0 ? own : own.filter(record => record.mode === 'row')
}

/** Every configuration the records show, with the entries its processes requested (first request order, across processes). */
export function discoveredConfigurations(records: readonly Pick<BootRecord, 'configuration' | 'requested'>[]): Map<string, { entries: string[], processes: number }> {
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
export function naturalOrder(records: readonly Pick<BootRecord, 'configuration' | 'released'>[], configuration: string, entries: readonly string[]): Schedule | undefined {
  const released = records.filter(record => record.configuration === configuration).map(record => record.released)
  const [first] = released
  if (first === undefined || first.length !== entries.length || new Set(first).size !== entries.length || !first.every(label => entries.includes(label))) return undefined
  return released.every(order => scheduleKey(order) === scheduleKey(first)) ? first : undefined
}

/** Every distinct order the processes of `configuration` released its entries in. */
export function naturalOrders(records: readonly Pick<BootRecord, 'configuration' | 'released'>[], configuration: string): Schedule[] {
  return [...new Map(records.filter(record => record.configuration === configuration).map(record => [scheduleKey(record.released), record.released])).values()]
}

/** `rows` with every entry renamed so that the first row reads `first` (each row a permutation of the same entries). */
export function relabelled(rows: readonly Schedule[], first: Schedule): Schedule[] {
  const [lead] = rows
  if (lead === undefined) return []
  const rename = new Map(lead.map((label, i) => [label, first[i]!]))
  return rows.map(row => row.map(label => rename.get(label) ?? label))
}

/** What every process of `configuration` that recorded applies showed: its release order and its applies. */
function appliesOf(records: Records, configuration: string): AppliesRun[] {
  return records.filter(record => record.configuration === configuration && (record.applies?.length ?? 0) > 0).map(record => ({ released: record.released, applies: record.applies! }))
}

/** The apply structure the natural run's processes show for `configuration` (the first's units, every one's ties), if they recorded applies. */
export function naturalStructure(records: Records, configuration: string, entries: readonly string[]): ApplyStructure | undefined {
  const [first, ...others] = appliesOf(records, configuration)
  if (first === undefined) return undefined
  const requires = entryRequirements(records.filter(record => record.configuration === configuration))
  return withTiesOf(applyStructure(first, new Set(entries), requires), [first, ...others])
}

/** The plan of every configuration the natural run booted. */
export function planConfigurations(records: Records, settings: ConfigurationSettings): ConfigurationPlan[] {
  return [...discoveredConfigurations(records)].map(([configuration, { entries, processes }]) => {
    // Shards plan from their own natural runs, which may load differently: each plans from what they all share.
    const shared = settings.countsNatural === false
    const found = naturalStructure(records, configuration, entries)
    const structure = shared && found !== undefined ? canonicalStructure(found) : found
    const chains = shared ? [...entries].sort() : entries
    const space: Space = { chains: chains.map(entry => ({ plugin: entry, ops: [entry] })), ...structure === undefined ? {} : { applies: structure } }
    const natural = shared ? undefined : naturalOrder(records, configuration, entries)
    // A plan that counts what was seen takes the orders the natural run's processes realised, when they loaded alike
    // (`loadedAlike`). Each test saw only its own processes' orders, and every test boots in every run after the
    // natural run: orders that differed between processes count for none of them, and the rows give every order to every test.
    const seen = shared || !loadedAlike(records.filter(record => record.configuration === configuration)) ? [] : naturalOrders(records, configuration)
    // The natural run is one run of the plan's budget: a plan that counts what was seen has one fewer for its rows.
    const budget = strategies[settings.strategy].countsSeen === true && seen.length > 0 ? Math.max(0, settings.budget - 1) : settings.budget
    const { plan, schedules } = planSpace(configuration, space, { ...settings, budget }, undefined, seen)
    const rows = natural === undefined || plan.countsSeen === true ? schedules : relabelled(schedules, natural).slice(1)
    const counted = plan.countsSeen === true ? seen : natural === undefined ? [] : [natural]
    return { configuration, entries, space, rows, processes, plan, counted, ...natural === undefined ? {} : { natural } }
  })
}

/** How many rows the plan has in all: the runs' rows, and the natural run's orders that counted. */
export function rowCount(plan: Pick<ConfigurationPlan, 'rows' | 'counted'>): number {
  return plan.rows.length + plan.counted.length
}

/** How many runs after the natural run the plans need: the most rows of any configuration. */
export function runsNeeded(plans: readonly ConfigurationPlan[]): number {
  return Math.max(0, ...plans.map(plan => plan.rows.length))
}

/** The row each configuration gets in run `k` (0-based, after the natural run); one with fewer rows starts over, from the natural run's orders that counted. */
export function rowsOfRun(plans: readonly ConfigurationPlan[], k: number): Record<string, Schedule> {
  return Object.fromEntries(plans.flatMap((plan) => {
    const cycle = [...plan.counted, ...plan.rows]
    return cycle.length === 0 ? [] : [[plan.configuration, cycle[(k + plan.counted.length) % cycle.length] as Schedule]]
  }))
}

/** What a plan claims once the natural run and `explored` runs after it ran, before what ran is checked. */
export function claimOf(plan: ConfigurationPlan, explored: number): Guarantee {
  if (plan.plan.countsSeen === true) return plan.plan.guarantee(explored, explored >= plan.rows.length)
  const counted = explored + plan.counted.length
  return plan.plan.guarantee(counted, counted >= rowCount(plan))
}

/** Why the applies every process recorded cannot be read by the plan's structure, if they cannot. */
function appliesProblem(plan: ConfigurationPlan, own: Records): string | undefined {
  const structure = plan.space.applies
  if (structure === undefined) return 'no process recorded when its plugins applied'
  const ops = new Set(plan.entries)
  for (const record of own) {
    const why = record.applies === undefined ? 'a process recorded no applies' : unexplained(structure, record.applies, ops)
    if (why !== undefined) return why
  }
  return undefined
}

/** How far the applies of `own` reach: the owed relative orders of `strength` units they show, the ties they reverse. */
function appliesReach(structure: ApplyStructure, own: Records, strength: number): AppliesReach | undefined {
  const seen = withTiesOf(structure, own.map(record => ({ released: record.released, applies: record.applies ?? [] })))
  const table = ApplyOrders.of(seen, strength)
  if (table === undefined) return undefined
  const ties = new TieReversals(seen)
  const reversible = ties.size
  for (const record of own) {
    const order = realisedApplies(seen, record.applies ?? [])
    table.add(order)
    ties.add(order)
  }
  const { realised, total } = table.counts()
  return { orders: { shown: realised, owed: total }, ties: { reversed: reversible - ties.size, reversible } }
}

/** How far the recorded applies reach: the owed orders shown, the ties reversed, and the rows every order would take. */
export interface AppliesReach {
  readonly orders: { readonly shown: number, readonly owed: number }
  readonly ties: { readonly reversed: number, readonly reversible: number }
  readonly rowsNeeded?: number
}

/** What the runs proved for one configuration, and, when a plan over applies could not claim it, why. */
export interface ConfigurationProof {
  readonly guarantee: Guarantee
  readonly note?: string
  /** For a plan over applies whose applies can be read: how far they reached, at the plan's strength. */
  readonly reach?: AppliesReach
}

/**
 * What the runs proved for one configuration, by the one rule of
 * `explore/guarantee.ts`: the plan's claim once the natural run and
 * `explored` runs after it ran, checked on the realised orders (and, for a
 * plan over applies, the recorded applies) of the processes that booted it
 * and are evidence for every test of it ({@link evidenceOf}).
 */
export function configurationProof(plan: ConfigurationPlan, explored: number, records: ProofRecords): ConfigurationProof {
  const own = evidenceOf(plan, records)
  const runs = own.map((record) => {
    const enabled = new Map(record.requested.map(point => [point.label, point.enabledAt]))
    return { schedule: record.released, enabledAt: record.released.map(label => enabled.get(label) ?? 0) }
  })
  const overApplies = plan.plan.over === 'applies'
  const problem = overApplies ? appliesProblem(plan, own) : undefined
  const reachAt = (strength: number) => problem === undefined && plan.space.applies !== undefined ? appliesReach(plan.space.applies, own, strength) : undefined
  const claim = claimOf(plan, explored)
  const guarantee = realisedGuarantee(claim.kind === 'sampled' && overApplies ? { kind: 'applies', strength: plan.plan.reach === undefined ? 2 : strengthOf(plan) } : claim, {
    deviated: own.some(record => deviation(plan.space, record.released) !== undefined),
    aimed: plan.plan.strength,
    realisedAt: strength => realisedIn(plan.space, strength, runs),
    appliesAt: (strength) => {
      const reach = reachAt(strength)
      return reach !== undefined && reach.orders.shown === reach.orders.owed
    },
  })
  const reached = overApplies ? reachAt(strengthOf(plan)) : undefined
  const rowsNeeded = plan.plan.reach?.rowsNeeded
  const note = plan.plan.fallback !== undefined ? `planned over imports: ${plan.plan.fallback}`
    : problem !== undefined ? `the applies cannot tell (${problem}): the import orders decide` : undefined
  return {
    guarantee,
    ...note === undefined ? {} : { note },
    ...reached === undefined ? {} : { reach: { ...reached, ...rowsNeeded === undefined ? {} : { rowsNeeded } } },
  }
}

/** The strength a plan over applies was made at. */
function strengthOf(plan: ConfigurationPlan): number {
  return plan.plan.strength ?? 2
}

/** What the runs proved for one configuration (see {@link configurationProof}). */
export function configurationGuarantee(plan: ConfigurationPlan, explored: number, records: ProofRecords): Guarantee {
  return configurationProof(plan, explored, records).guarantee
}
