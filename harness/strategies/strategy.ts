import { spaceSize } from '../space/space.ts'
import type { Schedule, Space } from '../space/space.ts'

/**
 * The exploration-strategy contract: a strategy turns a schedule space into a
 * plan (which schedules to run, in which order) and can say afterwards what
 * running a prefix of that plan proved.
 */

/** The strategies a run can choose; `auto` is the default (`applies` for `loadrace test`). */
export type StrategyName = 'auto' | 'exhaustive' | 'random' | 'pct' | 'cover' | 'applies'

/** Every strategy name, in the order help text lists them. */
export const STRATEGY_NAMES: readonly StrategyName[] = ['auto', 'exhaustive', 'random', 'pct', 'cover', 'applies']

/**
 * What an exploration established: every schedule ran (`exhaustive`), every
 * order of every `strength` operations ran (`t-way`), every relative order
 * of every `strength` plugins' applies that the load order can give was
 * seen (`applies`), or only a sample ran.
 */
export type Guarantee = { kind: 'exhaustive' } | { kind: 't-way'; strength: number } | { kind: 'applies'; strength: number } | { kind: 'sampled' }

/** Knobs shared by all strategies. */
export interface StrategyOptions {
  /** Seed for every random choice; derive it per scenario with `deriveSeed`. */
  seed: string
  /** Most schedules to plan. */
  budget: number
  /** PCT bug depth d (default 3). */
  depth?: number
  /** Covering strength t (default 3; 2 for `applies`). */
  strength?: number
  /** Schedules already run (a natural run's realised order): a plan that can counts what they showed and does not repeat them. */
  seen?: readonly Schedule[]
}

/** What a strategy will run. */
export interface Plan {
  /** Distinct schedules in exploration order; at most `budget`. Deterministic for (space, options). */
  readonly schedules: Iterable<Schedule>
  /** What was achieved if the first `explored` schedules ran; `finished` = the iterable was consumed to its end. */
  guarantee(explored: number, finished: boolean): Guarantee
  /** The covering strength the plan aims at (a covering plan cut short may still prove a lower one); undefined for a sampling plan. */
  readonly strength?: number
  /** What the plan covers: the orders of imports (the default), or of plugins' applies. */
  readonly over?: 'imports' | 'applies'
  /** Set when a plan over applies could not be made and the import cover stands in: why. */
  readonly fallback?: string
  /** Whether the plan counts the `seen` schedules itself (and its rows are only what comes after them). */
  readonly countsSeen?: boolean
  /** A plan over applies: how far its rows are predicted to reach, and how many rows every owed order would take. */
  readonly reach?: {
    readonly orders: { readonly shown: number, readonly owed: number }
    readonly ties: { readonly reversed: number, readonly reversible: number }
    readonly rowsNeeded?: number
  }
}

/** One exploration strategy. */
export interface Strategy {
  readonly name: StrategyName
  /** Whether its plans count the `seen` schedules themselves (its rows come after them, so they spend the budget too). */
  readonly countsSeen?: boolean
  plan(space: Space, options: StrategyOptions): Plan
}

/** PCT's default bug depth. */
export const DEFAULT_DEPTH = 3
/** The covering strength used when none is given. */
export const DEFAULT_STRENGTH = 3
/** The strength of a plan over applies when none is given: every pair of plugins. */
export const DEFAULT_APPLY_STRENGTH = 2

/** `exhaustive`, `t-way:<t>` or `sampled`. */
export function formatGuarantee(guarantee: Guarantee): string {
  switch (guarantee.kind) {
    case 'exhaustive':
      return 'exhaustive'
    case 't-way':
      return `t-way:${guarantee.strength}`
    case 'applies':
      return `applies:${guarantee.strength}`
    case 'sampled':
      return 'sampled'
  }
}

/** Rejects a budget that is not a whole number ≥ 0 (or `Infinity`). */
export function checkBudget(budget: number): number {
  if (!(budget === Infinity || (Number.isSafeInteger(budget) && budget >= 0))) {
    throw new RangeError(`budget must be a whole number ≥ 0 or Infinity, got ${budget}`)
  }
  return budget
}

/** Reads an optional whole-number option ≥ 1, falling back to its default. */
export function wholeOption(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback
  if (!Number.isSafeInteger(chosen) || chosen < 1) {
    throw new RangeError(`${name} must be a whole number ≥ 1, got ${chosen}`)
  }
  return chosen
}

/** An iterable that starts over (with fresh state) each time it is iterated, so a plan can be replayed. */
export function replayable(start: () => Iterator<Schedule>): Iterable<Schedule> {
  return { [Symbol.iterator]: start }
}

/** The first `budget` schedules of `schedules`, lazily. */
export function* upTo(schedules: Iterable<Schedule>, budget: number): Generator<Schedule> {
  if (budget <= 0) return
  let count = 0
  for (const schedule of schedules) {
    yield schedule
    if (++count >= budget) return
  }
}

/** Whether `explored` distinct schedules are the whole space. */
export function coversSpace(space: Space, explored: number): boolean {
  return BigInt(explored) >= spaceSize(space)
}

/** The guarantee of a sampling plan: exhaustive once every schedule ran, sampled before. */
export function sampledGuarantee(space: Space): Plan['guarantee'] {
  return (explored) => (coversSpace(space, explored) ? { kind: 'exhaustive' } : { kind: 'sampled' })
}
