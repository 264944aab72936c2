import { createRng, deriveSeed } from '../space/random.ts'
import type { Rng } from '../space/random.ts'
import { distinctDraws } from '../space/distinct.ts'
import { opCount } from '../space/space.ts'
import type { Schedule, Space } from '../space/space.ts'
import { checkBudget, DEFAULT_DEPTH, replayable, sampledGuarantee, wholeOption } from './strategy.ts'
import type { Strategy } from './strategy.ts'

/**
 * One run of PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010)
 * with chains as threads: chains get random distinct priorities depth … depth+n−1;
 * depth−1 change points are drawn among the steps 1…k (k = operation count);
 * every step runs the enabled chain with the highest priority, except that at
 * the i-th change point that chain first drops to priority depth−i, below
 * every initial priority. A bug of depth d shows in one run with probability
 * at least 1/(n·k^(d−1)).
 */
export function pctSchedule(space: Space, depth: number, rng: Rng): Schedule {
  const chains = space.chains
  const steps = opCount(space)
  const priority = rng.shuffle(chains.map((_, index) => depth + index))
  const steppable = Array.from({ length: steps }, (_, index) => index + 1)
  const changes = Math.min(depth - 1, steps)
  const lowerAt = new Map<number, number>() // step → the change point's number i
  for (let i = 1; i <= changes; i++) {
    const pick = i - 1 + rng.int(steps - (i - 1)) // partial Fisher–Yates: distinct steps
    const step = steppable[pick] as number
    steppable[pick] = steppable[i - 1] as number
    steppable[i - 1] = step
    lowerAt.set(step, i)
  }
  const next = chains.map(() => 0)
  const highestEnabled = (): number => {
    let best = -1
    chains.forEach((chain, index) => {
      if ((next[index] as number) < chain.ops.length && (best === -1 || (priority[index] as number) > (priority[best] as number))) best = index
    })
    return best
  }
  const schedule: string[] = []
  for (let step = 1; step <= steps; step++) {
    let running = highestEnabled()
    const change = lowerAt.get(step)
    if (change !== undefined) {
      priority[running] = depth - change
      running = highestEnabled()
    }
    const rank = next[running] as number
    schedule.push(chains[running]?.ops[rank] as string)
    next[running] = rank + 1
  }
  return schedule
}

/** Repeated PCT runs (bug depth `depth`, default 3), deduplicated, up to the budget. */
export const pct: Strategy = {
  name: 'pct',
  plan(space, options) {
    const budget = checkBudget(options.budget)
    const depth = wholeOption('depth', options.depth, DEFAULT_DEPTH)
    return {
      schedules: replayable(() => {
        const rng = createRng(deriveSeed(options.seed, 'pct'))
        return distinctDraws(space, () => pctSchedule(space, depth, rng), { limit: budget })
      }),
      guarantee: sampledGuarantee(space),
    }
  },
}
