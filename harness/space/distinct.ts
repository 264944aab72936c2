import { scheduleKey, spaceSize } from './space.ts'
import type { Schedule, Space } from './space.ts'

/** How many draws in a row may repeat an earlier schedule before sampling gives up. */
export const DEFAULT_PATIENCE = 256

/** Limits for {@link distinctDraws}. */
export interface DrawLimits {
  /** Stop after this many new schedules. */
  readonly limit: number
  /** Keys of schedules already produced elsewhere; they are skipped, and new ones are added. */
  readonly seen?: Set<string>
  /** Consecutive repeated draws tolerated before stopping (bounded retries). */
  readonly patience?: number
}

/**
 * Turns a random schedule source into a stream of distinct schedules: repeats
 * are skipped, and the stream ends at `limit`, when the space is exhausted, or
 * after `patience` repeats in a row.
 */
export function* distinctDraws(space: Space, draw: () => Schedule, limits: DrawLimits): Generator<Schedule> {
  const seen = limits.seen ?? new Set<string>()
  const patience = limits.patience ?? DEFAULT_PATIENCE
  const size = spaceSize(space)
  let produced = 0
  let misses = 0
  while (produced < limits.limit && BigInt(seen.size) < size && misses < patience) {
    const schedule = draw()
    const key = scheduleKey(schedule)
    if (seen.has(key)) {
      misses++
      continue
    }
    seen.add(key)
    misses = 0
    produced++
    yield schedule
  }
}
