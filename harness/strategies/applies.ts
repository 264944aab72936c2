import { applyRows } from '../space/apply-rows.ts'
import { createRng, deriveSeed } from '../space/random.ts'
import { cover } from './cover.ts'
import { checkBudget, DEFAULT_APPLY_STRENGTH, replayable, upTo, wholeOption } from './strategy.ts'
import type { Plan, Strategy } from './strategy.ts'

/**
 * A plan over applies: release orders that make every t plugins apply in
 * every relative order the load order can give them (`space/apply-rows.ts`),
 * after the orders already seen. Two plugins register in the order of the
 * last releases they need, so a race between registrations is a race between
 * applies, which a pair cover over imports may never flip (a plugin waiting
 * on the last of several providers). It needs the space's apply structure,
 * which a run records; without one (or when it is too large to track) the
 * import cover at the same strength stands in, and the plan says why. The
 * guarantee, `applies:t`, is claimed once every row ran and the rows are
 * predicted to show every owed order; what really ran decides what stands
 * (`explore/guarantee.ts`). Ties come first (`space/apply-rows.ts`): a
 * budget too small for every order still reverses the ties it can, and the
 * plan says how far it reaches and how many rows every order would take.
 */
export const applies: Strategy = {
  name: 'applies',
  countsSeen: true,
  plan(space, options): Plan {
    const budget = checkBudget(options.budget)
    const strength = wholeOption('strength', options.strength, DEFAULT_APPLY_STRENGTH)
    const structure = space.applies
    const fallback = (why: string): Plan => ({ ...cover.plan(space, { ...options, strength }), over: 'imports', fallback: why })
    if (structure === undefined) return fallback('no run recorded when its plugins apply')
    const found = applyRows(space, structure, strength, createRng(deriveSeed(options.seed, `applies:${strength}`)), budget, options.seen ?? [])
    if (found === undefined) return fallback(`its ${structure.units.length} plugins are too many to track ${strength} at a time`)
    return {
      schedules: replayable(() => upTo(found.rows, budget)),
      guarantee: explored => explored >= found.rows.length && found.complete ? { kind: 'applies', strength } : { kind: 'sampled' },
      over: 'applies',
      countsSeen: true,
      strength,
      reach: { orders: found.orders, ties: found.ties, ...found.rowsNeeded === undefined ? {} : { rowsNeeded: found.rowsNeeded } },
    }
  },
}
