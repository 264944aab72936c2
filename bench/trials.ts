import fc from 'fast-check'
import { runInterleaving } from '../harness/runtime/interleaving.ts'
import type { Scenario } from '../harness/scenario/scenario.ts'
import { scheduleKey, type Schedule } from '../harness/space/space.ts'
import type { StrategyName } from '../harness/strategies/index.ts'
import { planFor } from '../harness/explore/plan.ts'
import { spaceOfScenario } from '../harness/explore/declared-space.ts'
import { referenceTarget } from '../harness/targets/reference.ts'
import { fastCheckDriver } from './fc-driver.ts'
import type { BugId } from './figures.ts'

/**
 * Bug-finding trials: one strategy, one planted bug, one seed, run until the
 * first interleaving whose bytes differ from the first one's, or until the
 * budget is spent.
 */

/** A contender of the power table: a harness strategy (with its knobs) or the fast-check peer. */
export type Contender =
  | { label: string, kind: 'harness', strategy: StrategyName, strength?: number, depth?: number }
  | { label: string, kind: 'fast-check' }

/** Every contender, in table order. */
export const CONTENDERS: readonly Contender[] = [
  { label: 'cover (t=3)', kind: 'harness', strategy: 'cover', strength: 3 },
  { label: 'cover (t=2)', kind: 'harness', strategy: 'cover', strength: 2 },
  { label: 'pct (d=3)', kind: 'harness', strategy: 'pct', depth: 3 },
  { label: 'random', kind: 'harness', strategy: 'random' },
  { label: 'exhaustive', kind: 'harness', strategy: 'exhaustive' },
  { label: 'auto', kind: 'harness', strategy: 'auto' },
  { label: 'fast-check fc.scheduler', kind: 'fast-check' },
]

/** One trial to run. */
export interface TrialJob {
  /** A contender's label. */
  contender: string
  bug: BugId
  seed: number
  budget: number
}

/** How a trial ended. */
export interface TrialOutcome extends TrialJob {
  /** 1-based position of the first divergent interleaving; null when none came within the budget. */
  firstDivergence: number | null
  /** How many interleavings the contender planned (the budget for fast-check, which does not plan). */
  planned: number
}

/** Runs trials on the planted scenarios in this thread; interleavings of a planned schedule are memoised. */
export class TrialRunner {
  private readonly hashes = new Map<string, Promise<string>>()

  constructor(private readonly scenarios: ReadonlyMap<BugId, Scenario>) {}

  async run(job: TrialJob): Promise<TrialOutcome> {
    const contender = CONTENDERS.find(candidate => candidate.label === job.contender)
    if (contender === undefined) throw new Error(`unknown contender "${job.contender}"`)
    const scenario = this.scenarios.get(job.bug)
    if (scenario === undefined) throw new Error(`no scenario for bug ${job.bug}`)
    const result = contender.kind === 'fast-check'
      ? { planned: job.budget, firstDivergence: await fastCheckTrial(scenario, job.seed, job.budget) }
      : await this.harnessTrial(scenario, contender, job)
    return { ...job, ...result }
  }

  /** The harness's plan for `loadrace sweep --strategy … --seed <seed> --budget <budget>`, run in order. */
  private async harnessTrial(scenario: Scenario, contender: Contender & { kind: 'harness' }, job: TrialJob) {
    const { schedules } = planFor(scenario, {
      strategy: contender.strategy,
      budget: job.budget,
      seed: String(job.seed),
      strength: contender.strength,
      depth: contender.depth,
    })
    return { planned: schedules.length, firstDivergence: await firstDivergence(schedules, schedule => this.hash(scenario, schedule)) }
  }

  /** The bytes' hash of one planned schedule (the system is deterministic per schedule, so one run serves every trial). */
  private hash(scenario: Scenario, schedule: Schedule): Promise<string> {
    const key = `${scenario.name}:${scheduleKey(schedule)}`
    let hash = this.hashes.get(key)
    if (hash === undefined) {
      hash = runInterleaving(scenario, referenceTarget, schedule).then(result => result.hash)
      this.hashes.set(key, hash)
    }
    return hash
  }
}

/** 1-based position of the first schedule whose hash differs from the first one's, or null. */
export async function firstDivergence(schedules: readonly Schedule[], hash: (schedule: Schedule) => Promise<string>): Promise<number | null> {
  let baseline: string | undefined
  for (const [index, schedule] of schedules.entries()) {
    const current = await hash(schedule)
    baseline ??= current
    if (current !== baseline) return index + 1
  }
  return null
}

/**
 * fast-check's own loop: `fc.check` over `fc.scheduler()` with `numRuns` =
 * budget, each run one interleaving driven by the scheduler, the property
 * failing on the first run whose bytes differ from the first run's (no
 * shrinking). Returns that run's number, or null.
 */
export async function fastCheckTrial(scenario: Scenario, seed: number, budget: number): Promise<number | null> {
  const operations = spaceOfScenario(scenario).chains.flatMap(chain => chain.ops)
  let runs = 0
  let baseline: string | undefined
  let divergedAt: number | null = null
  await fc.check(fc.asyncProperty(fc.scheduler(), async (scheduler) => {
    runs++
    const { hash } = await runInterleaving(scenario, referenceTarget, operations, { drive: fastCheckDriver(scheduler) })
    baseline ??= hash
    if (hash === baseline) return true
    divergedAt ??= runs
    return false
  }), { seed, numRuns: budget, endOnFailure: true })
  return divergedAt
}
