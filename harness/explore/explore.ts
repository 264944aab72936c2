import type { Scenario } from '../scenario/scenario.ts'
import { spaceSize, type Space } from '../space/space.ts'
import { discoveredSpace } from '../space/discovered.ts'
import { applyStructure, entryRequirements, type ApplyStructure } from '../space/applies.ts'
import { RealisedOrders } from '../space/coverage.ts'
import type { Guarantee } from '../strategies/index.ts'
import { replayableSchedule, type InterleavingRecord, type Runner } from '../runners/runner.ts'
import { spaceOfScenario } from './declared-space.ts'
import type { Exploration, ExploreRun, PositionResult } from './exploration.ts'
import { ExplorationLog } from './log.ts'
import { realisedGuarantee } from './guarantee.ts'
import { planFor, type PlanSettings } from './plan.ts'
import { inShard } from './shard.ts'

/**
 * The space as the system shows it: one run in declaration order (every
 * chain whole, one after another) reveals the timers each plugin sets up
 * while booting, and they join their plugins' chains (see `discoveredSpace`).
 */
export async function discoverSpace(scenario: Scenario, runner: Runner): Promise<Space> {
  return (await discoveryRun(scenario, runner)).space
}

/** The discovery run: the space it shows (with when its plugins applied, when it recorded that), and the runtime it ran on. */
async function discoveryRun(scenario: Scenario, runner: Runner): Promise<{ space: Space, runtime: InterleavingRecord['runtime'] }> {
  const declared = spaceOfScenario(scenario)
  const run = await runner.runOne(scenario, declared.chains.flatMap(chain => chain.ops))
  const space = discoveredSpace(declared, run.schedule)
  const applies = run.applies === undefined || run.applies.length === 0 ? undefined : spaceApplies(space, run)
  return { space: applies === undefined ? space : { ...space, applies }, runtime: run.runtime }
}

/** The apply structure a run of `space` shows, over its imports (each chain's first operation). */
function spaceApplies(space: Space, run: InterleavingRecord): ApplyStructure {
  const imports = new Set(space.chains.map(chain => chain.ops[0]!))
  const requires = entryRequirements([{ requested: run.schedule.map((label, i) => ({ label, enabledAt: run.enabledAt[i] ?? 0 })), released: run.schedule }])
  return applyStructure({ released: run.schedule.filter(op => imports.has(op)), applies: run.applies! }, imports, requires)
}

/** The strength whose realised orders must be checked for a plan's claim (undefined: nothing to check). */
function checkedStrength(claim: Guarantee): number | undefined {
  return claim.kind === 't-way' ? claim.strength : undefined
}

/** A strategy's plan over a space (see `planFor`). */
type Plan = ReturnType<typeof planFor>['plan']

/** The log of a plan's runs over `space`: it checks the t-orders the claim of the whole plan (`planned` interleavings) needs. */
export function explorationLog(space: Space, plan: Plan, planned: number): ExplorationLog {
  const strength = checkedStrength(plan.guarantee(planned, true))
  return new ExplorationLog(space, strength === undefined ? undefined : RealisedOrders.of(space, strength))
}

/**
 * What an exploration says of its space, plan and log once `ran` of the
 * plan's interleavings ran: the space's size, the distinct orders realised,
 * the guarantee that holds for them, the coverage and the deviations.
 */
export function explorationOf(space: Space, plan: Plan, log: ExplorationLog, ran: number, finished: boolean): Pick<Exploration, 'space' | 'size' | 'ran' | 'explored' | 'guarantee' | 'coverage' | 'deviations' | 'finished'> {
  return {
    space,
    size: spaceSize(space),
    ran,
    explored: log.distinct(),
    guarantee: realisedGuarantee(plan.guarantee(ran, finished), {
      deviated: log.deviations !== null,
      aimed: plan.strength,
      realisedAt: strength => log.realisedAt(strength),
      appliesAt: strength => log.appliesAt(strength),
    }),
    coverage: log.coverage(),
    deviations: log.deviations,
    finished,
  }
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
export async function explore(scenario: Scenario, runner: Runner, settings: PlanSettings, run: ExploreRun = {}): Promise<Exploration> {
  const discovery = run.space === undefined ? await discoveryRun(scenario, runner) : undefined
  const space = run.space ?? discovery!.space
  const { plan, schedules } = planFor(scenario, settings, space)
  const positions: number[] = []
  schedules.forEach((_, position) => { if (inShard(position, settings.shard)) positions.push(position) })
  const planned = positions.map(position => schedules[position]!)
  const log = explorationLog(space, plan, schedules.length)
  const ran = new Uint8Array(planned.length)
  const byPosition = run.byPosition ? new Map<number, PositionResult>() : undefined
  let runtime = discovery?.runtime
  await runner.runAll(scenario, planned, (record) => {
    ran[record.index] = 1
    const position = positions[record.index]!
    byPosition?.set(position, { hash: record.hash, schedule: replayableSchedule(record) })
    runtime ??= record.runtime
    log.add({ ...record, index: position })
    run.onProgress?.(log.runs, planned.length)
  }, run.signal)

  const outputs = log.outputs()
  const divergent = outputs[1]?.first.index
  const finished = log.runs === planned.length
  const sharded = settings.shard !== undefined && settings.shard.count > 1
  return {
    ...explorationOf(space, plan, log, log.runs, finished),
    ...sharded ? { orders: log.orderKeys() } : {},
    outputs,
    // How many explored interleavings, in exploration order, up to and including the first that differs from the first one.
    firstDivergenceAt: divergent === undefined ? null : countRanUpTo(ran, positions, divergent),
    // A shard alone proves nothing about the whole space; merging the shards restores the plan's guarantee.
    ...sharded ? { guarantee: { kind: 'sampled' as const } } : {},
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
