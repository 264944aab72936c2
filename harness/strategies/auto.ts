import { createRng, deriveSeed } from '../space/random.ts'
import { coverFits } from '../space/covering.ts'
import { distinctDraws } from '../space/distinct.ts'
import { linearExtensions } from '../space/enumerate.ts'
import { scheduleKey, spaceSize } from '../space/space.ts'
import type { Schedule, Space } from '../space/space.ts'
import { coverGuarantee, coverRows } from './cover.ts'
import { uniformSchedule } from './random.ts'
import { checkBudget, replayable } from './strategy.ts'
import type { Strategy } from './strategy.ts'

/**
 * The default: the strongest guarantee the budget affords, with shallow
 * orderings first. The 3-way covering rows always lead, so a divergence that
 * depends on the relative order of at most three operations shows within the
 * first rows (for two plugins: a schedule, then its reverse). When the whole
 * space fits the budget, the rest of it follows in depth-first order (skipping
 * the rows already run) and completion proves `exhaustive`. Otherwise the rows
 * are followed by seeded uniform samples up to the budget, proving `t-way:3`
 * once the rows ran (or `t-way:2` when only the 2-way rows fit the budget).
 */
export const auto: Strategy = {
  name: 'auto',
  plan(space, options) {
    const budget = checkBudget(options.budget)
    const complete = spaceSize(space) <= BigInt(Math.min(budget, Number.MAX_SAFE_INTEGER))
    const { rows, strength, aimed } = leadingRows(space, options.seed, budget)
    const rest = (seen: Set<string>): Iterable<Schedule> => {
      if (complete) return unseen(linearExtensions(space), seen)
      const rng = createRng(deriveSeed(options.seed, 'random'))
      return distinctDraws(space, () => uniformSchedule(space, rng), { limit: budget - rows.length, seen })
    }
    return {
      schedules: replayable(function* () {
        const seen = new Set<string>()
        for (const row of rows) {
          seen.add(scheduleKey(row))
          yield row
        }
        yield* rest(seen)
      }),
      guarantee: (explored) => coverGuarantee(space, rows, strength, explored),
      ...aimed === undefined ? {} : { strength: aimed },
    }
  },
}

/**
 * The strongest covering rows (3-way, else 2-way) that fit the budget. When
 * not even the 2-way rows fit, their first `budget` rows, proving nothing
 * of their own (`aimed`: the strength of the rows cut).
 */
function leadingRows(space: Space, seed: string, budget: number): { rows: Schedule[]; strength: number | undefined; aimed: number | undefined } {
  let rows: Schedule[] = []
  let aimed: number | undefined
  for (const strength of [3, 2]) {
    if (!coverFits(space, strength)) continue
    rows = coverRows(space, strength, seed)
    aimed = strength
    if (rows.length <= budget) return { rows, strength, aimed }
  }
  return { rows: rows.slice(0, budget), strength: undefined, aimed }
}

/** The schedules of `schedules` whose keys are not in `seen`. */
function* unseen(schedules: Iterable<Schedule>, seen: ReadonlySet<string>): Generator<Schedule> {
  for (const schedule of schedules) if (!seen.has(scheduleKey(schedule))) yield schedule
}
