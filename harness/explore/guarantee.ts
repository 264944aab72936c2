import { RealisedOrders } from '../space/coverage.ts'
import type { Schedule, Space } from '../space/space.ts'
import type { Guarantee } from '../strategies/index.ts'

/**
 * What the runs of a plan proved: one rule for the sweep's explorations and
 * for `loadrace test`'s configurations alike. A strategy's plan states what
 * running it would prove; what really ran decides what stands:
 *
 * - a run that fell outside the discovered space proves only a sample (the
 *   space under-describes the system);
 * - `exhaustive` stands;
 * - a `t-way` claim stands only when the realised orders hold every relative
 *   order of t operations the system allows (an operation only ever requested
 *   after another was released is taken to depend on it);
 * - a covering plan cut short of the strength it aimed at (its claim is a
 *   sample) claims the highest lower strength, down to 2, whose every order
 *   the realised orders hold;
 * - an `applies:t` claim (a plan over plugins' applies) stands only when the
 *   applies every run recorded hold every relative order of t plugins the
 *   load order can give; else the highest lower strength over applies whose
 *   every order they hold, down to 2; and where the applies cannot tell (a
 *   run applied otherwise than its structure says) or show too little, what
 *   the realised import orders hold (`t-way:2`), else a sample.
 */

/** One effective order a run realised, and how many operations had been released when each of its operations was requested. */
export interface RealisedRun {
  readonly schedule: Schedule
  readonly enabledAt: readonly number[]
}

/** What the runs showed, as the rule reads it. */
export interface Evidence {
  /** Some run fell outside the discovered space. */
  readonly deviated: boolean
  /** The covering strength the plan aimed at (undefined: a sampling plan). */
  readonly aimed: number | undefined
  /** Whether the realised orders hold every order of `strength` operations the system allows (false when too large to check). */
  realisedAt(strength: number): boolean
  /** Whether the recorded applies hold every relative order of `strength` plugins the load order can give (false when they cannot tell). */
  appliesAt?(strength: number): boolean
}

/** What the runs proved of a plan that claims `claimed`. */
export function realisedGuarantee(claimed: Guarantee, evidence: Evidence): Guarantee {
  if (evidence.deviated) return { kind: 'sampled' }
  if (claimed.kind === 'exhaustive') return claimed
  if (claimed.kind === 'applies') {
    for (let strength = claimed.strength; strength >= 2; strength--) if (evidence.appliesAt?.(strength) === true) return { kind: 'applies', strength }
    return evidence.realisedAt(2) ? { kind: 't-way', strength: 2 } : { kind: 'sampled' }
  }
  const highest = claimed.kind === 't-way' ? claimed.strength : (evidence.aimed ?? 0) - 1
  const lowest = claimed.kind === 't-way' ? claimed.strength : 2
  for (let strength = highest; strength >= lowest; strength--) {
    if (evidence.realisedAt(strength)) return { kind: 't-way', strength }
  }
  return { kind: 'sampled' }
}

/** Whether `runs` realised every order of `strength` operations of `space` the system allows; false when too large to check. */
export function realisedIn(space: Space, strength: number, runs: Iterable<RealisedRun>): boolean {
  const realised = RealisedOrders.of(space, strength)
  if (realised === undefined) return false
  for (const run of runs) realised.add(run.schedule, run.enabledAt)
  return realised.complete()
}
