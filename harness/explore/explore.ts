import type { Scenario } from '../scenario/types.ts'
import { serviceEntryIds as raceEntryIds } from '../targets/catalogue.ts'
import { scheduleKey, spaceOf, spaceSize, type Schedule, type Space } from '../space/space.ts'
import { deviation, discoveredSpace } from '../space/discovered.ts'
import { RealisedOrders } from '../space/coverage.ts'
import { strategies, type Guarantee, type StrategyName } from '../strategies/index.ts'
import { upTo } from '../strategies/strategy.ts'
import { deriveSeed } from '../space/random.ts'
import { replayableSchedule, type RunRecord, type Runner } from '../runners/runner.ts'
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
  /** Called after each interleaving with the number run so far and the number planned. */
  onProgress?: (explored: number, planned: number) => void
  /** Plan over this space instead of discovering one (another host explores the space its first host discovered). */
  space?: Space
  /** Keep each planned position's hash and replayable schedule, to compare hosts position by position. */
  byPosition?: boolean
}

/** What one planned position gave: its output's hash, and the schedule that replays it. */
export interface PositionResult {
  hash: string
  schedule: string[]
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

/** A run whose effective order fell outside the discovered space, which therefore under-describes the system. */
export interface Deviation {
  /** How many runs deviated. */
  count: number
  /** The first one: its effective schedule and why it deviates. */
  schedule: string[]
  reason: string
}

export interface Exploration {
  /** The discovered space. */
  space: Space
  size: bigint
  /** How many planned interleavings ran (in this shard). */
  planned: number
  /** How many distinct effective release orders those runs realised. */
  explored: number
  /** The distinct effective orders, for merging shards (only kept for a sharded exploration). */
  orders?: string[]
  /** Distinct outputs, ordered by their first appearance (`first.index` is the exploration position). */
  outputs: OutputGroup[]
  /** 1-based position of the first interleaving whose bytes differ from the first one's; null when none did. */
  firstDivergenceAt: number | null
  guarantee: Guarantee
  /** For a t-way plan: how many of the chain-consistent t-orders the effective orders realised. */
  coverage?: { strength: number, realised: number, total: number }
  deviations: Deviation | null
  /** False when the exploration was interrupted before the plan ended. */
  finished: boolean
  /** With `byPosition`: each planned position's result, by position in the unsharded plan. */
  byPosition?: Map<number, PositionResult>
  /** The runtime the runs ran on (from the discovery run): Node version and the shims the target needed. */
  runtime?: RunRecord['runtime']
}

/** The service entries that race with the plugins when a scenario says `services: entries`. */
export function serviceEntryIds(scenario: Scenario): readonly string[] {
  if (scenario.services !== 'entries') return []
  return raceEntryIds(scenario.app)
}

/** The interleaving space the scenario file declares: one chain per loader entry (services first when they race), one op per registration batch. */
export function spaceOfScenario(scenario: Scenario): Space {
  return spaceOf([
    ...serviceEntryIds(scenario).map(id => ({ id, batches: 1 })),
    ...scenario.plugins.map(spec => ({ id: spec.id, batches: spec.kind === 'tools' ? spec.batches.length : 1 })),
  ])
}

/**
 * The space as the system shows it: one run in declaration order (every
 * chain whole, one after another) reveals the timers each plugin sets up
 * while booting, and they join their plugins' chains (see `discoveredSpace`).
 */
export async function discoverSpace(scenario: Scenario, runner: Runner): Promise<Space> {
  return (await discoveryRun(scenario, runner)).space
}

/** The discovery run: the space it shows, and the runtime it ran on. */
async function discoveryRun(scenario: Scenario, runner: Runner): Promise<{ space: Space, runtime: RunRecord['runtime'] }> {
  const declared = spaceOfScenario(scenario)
  const run = await runner.runOne(scenario, declared.chains.flatMap(chain => chain.ops))
  return { space: discoveredSpace(declared, run.schedule), runtime: run.runtime }
}

/** The schedules a strategy plans over `space` (by default the declared one), before sharding, capped by the budget (and the scenario's own `budget:`). */
export function planFor(scenario: Scenario, options: ExploreOptions, space: Space = spaceOfScenario(scenario)) {
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
 * What an exploration proved, in terms of what really ran: the plan's claim,
 * kept only if no run left the discovered space and, for a t-way claim, only
 * if the effective orders realised every chain-consistent t-order.
 */
export function honestGuarantee(claimed: Guarantee, deviations: Deviation | null, realised: RealisedOrders | undefined): Guarantee {
  if (deviations !== null) return { kind: 'sampled' }
  if (claimed.kind === 't-way' && !realised?.complete()) return { kind: 'sampled' }
  return claimed
}

/** Bookkeeping over the runs of one exploration: outputs, distinct effective orders, deviations and realised t-orders. */
export class ExplorationLog {
  readonly groups = new Map<string, OutputGroup>()
  /** Distinct effective orders (by schedule key) and when each of their operations was requested. */
  private readonly orders = new Map<string, readonly number[]>()
  deviations: Deviation | null = null
  runs = 0

  constructor(private readonly space: Space, readonly realised: RealisedOrders | undefined) {}

  /** Records one run (its `index` is its position in the unsharded plan). */
  add(record: RunRecord): void {
    this.runs++
    const first: RunRecord = { ...record, json: undefined }
    const group = this.groups.get(record.hash)
    if (!group) {
      this.groups.set(record.hash, { hash: record.hash, count: 1, first, json: record.json! })
    } else {
      group.count++
      if (first.index < group.first.index) group.first = first
      if (group.json === undefined && record.json !== undefined) group.json = record.json
    }
    this.addOrder(record.schedule, record.enabledAt)
  }

  /** Records one effective order and when each of its operations was requested (from a run, or from a shard's report). */
  addOrder(schedule: Schedule, enabledAt: readonly number[]): void {
    const key = scheduleKey(schedule)
    if (this.orders.has(key)) return
    this.orders.set(key, [...enabledAt])
    this.realised?.add(schedule, enabledAt)
    const reason = deviation(this.space, schedule)
    if (reason === undefined) return
    if (this.deviations) this.deviations.count++
    else this.deviations = { count: 1, schedule: [...schedule], reason }
  }

  /** Distinct effective orders so far. */
  distinct(): number {
    return this.orders.size
  }

  /** The distinct effective orders, as {@link orderKey} strings. */
  orderKeys(): string[] {
    return [...this.orders].map(([key, enabledAt]) => `${key}/${enabledAt.join(',')}`)
  }

  /** Outputs by first appearance. */
  outputs(): OutputGroup[] {
    return [...this.groups.values()].sort((a, b) => a.first.index - b.first.index)
  }

  coverage(): Exploration['coverage'] {
    return this.realised && { strength: this.realised.strength, ...this.realised.counts() }
  }
}

/** Reads an effective order back from {@link ExplorationLog.orderKeys} (`<op>,<op>,…/<enabledAt>,…`; `,` and `/` never occur in a label). */
export function parseOrderKey(key: string): { schedule: string[], enabledAt: number[] } {
  const [ops = '', enabled = ''] = key.split('/')
  return { schedule: ops === '' ? [] : ops.split(','), enabledAt: enabled === '' ? [] : enabled.split(',').map(Number) }
}

/** The strength whose realised orders must be checked for a plan's claim (undefined: nothing to check). */
function checkedStrength(claim: Guarantee): number | undefined {
  return claim.kind === 't-way' ? claim.strength : undefined
}

/**
 * Discovers the scenario's space, runs the planned interleavings (this
 * shard's part of them) and groups them by output as they complete: one
 * group per distinct output, its count and its earliest interleaving (by
 * exploration position, whatever order the runner completed them in, so the
 * result does not depend on the number of workers). Besides the outputs, it
 * keeps the set of distinct effective orders (what `explored` counts) and,
 * for a t-way plan, which t-orders they realised.
 */
export async function explore(scenario: Scenario, runner: Runner, options: ExploreOptions): Promise<Exploration> {
  const discovery = options.space === undefined ? await discoveryRun(scenario, runner) : undefined
  const space = options.space ?? discovery!.space
  const { plan, schedules } = planFor(scenario, options, space)
  const positions: number[] = []
  schedules.forEach((_, position) => { if (inShard(position, options.shard)) positions.push(position) })
  const planned = positions.map(position => schedules[position]!)
  const fullClaim = plan.guarantee(schedules.length, true)
  const strength = checkedStrength(fullClaim)
  const log = new ExplorationLog(space, strength === undefined ? undefined : RealisedOrders.of(space, strength))
  const ran = new Uint8Array(planned.length)
  const byPosition = options.byPosition ? new Map<number, PositionResult>() : undefined
  let runtime = discovery?.runtime
  await runner.runAll(scenario, planned, (record) => {
    ran[record.index] = 1
    const position = positions[record.index]!
    byPosition?.set(position, { hash: record.hash, schedule: replayableSchedule(record) })
    runtime ??= record.runtime
    log.add({ ...record, index: position })
    options.onProgress?.(log.runs, planned.length)
  }, options.signal)

  const outputs = log.outputs()
  const divergent = outputs[1]?.first.index
  const finished = log.runs === planned.length
  const sharded = options.shard !== undefined && options.shard.count > 1
  return {
    space,
    size: spaceSize(space),
    planned: log.runs,
    explored: log.distinct(),
    ...sharded ? { orders: log.orderKeys() } : {},
    outputs,
    // How many explored interleavings, in exploration order, up to and including the first that differs from the first one.
    firstDivergenceAt: divergent === undefined ? null : countRanUpTo(ran, positions, divergent),
    // A shard alone proves nothing about the whole space; merging the shards restores the plan's guarantee.
    guarantee: sharded ? { kind: 'sampled' } : honestGuarantee(plan.guarantee(log.runs, finished), log.deviations, log.realised),
    coverage: log.coverage(),
    deviations: log.deviations,
    finished,
    ...byPosition ? { byPosition } : {},
    ...runtime ? { runtime } : {},
  }
}

/** How many of the shard's planned positions up to `position` ran. */
function countRanUpTo(ran: Uint8Array, positions: readonly number[], position: number): number {
  let count = 0
  for (let i = 0; i < positions.length && positions[i]! <= position; i++) count += ran[i]!
  return count
}
