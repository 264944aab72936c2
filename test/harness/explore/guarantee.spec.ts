import { describe, expect, it } from 'vitest'
import { realisedGuarantee, realisedIn, type Evidence } from '../../../harness/explore/guarantee.ts'
import { planSpace } from '../../../harness/explore/plan.ts'
import { linearExtensions } from '../../../harness/space/enumerate.ts'
import { spaceOf } from '../../../harness/space/space.ts'

/**
 * One rule for what the runs of a plan proved, the sweep's and `loadrace
 * test`'s alike (explore/guarantee.ts). The expectations follow from the
 * rule's definition: a claim stands only when what really ran supports it.
 */

const pair = spaceOf([{ id: 'a', batches: 1 }, { id: 'b', batches: 1 }])
const three = spaceOf([{ id: 'x', batches: 1 }, { id: 'y', batches: 1 }, { id: 'z', batches: 1 }])
const imports = (n: number) => Array.from({ length: n }, () => 0)

function evidence(realised: (strength: number) => boolean, overrides: Partial<Evidence> = {}): Evidence {
  return { deviated: false, aimed: undefined, realisedAt: realised, ...overrides }
}

describe('the guarantee that holds for what ran', () => {
  it('is the plan\'s exhaustive or sampled claim when no run left the space', () => {
    expect(realisedGuarantee({ kind: 'exhaustive' }, evidence(() => false))).toEqual({ kind: 'exhaustive' })
    expect(realisedGuarantee({ kind: 'sampled' }, evidence(() => true))).toEqual({ kind: 'sampled' })
  })

  it('is only a sample once a run left the space, whatever was claimed or realised', () => {
    expect(realisedGuarantee({ kind: 'exhaustive' }, evidence(() => true, { deviated: true }))).toEqual({ kind: 'sampled' })
    expect(realisedGuarantee({ kind: 't-way', strength: 2 }, evidence(() => true, { deviated: true }))).toEqual({ kind: 'sampled' })
  })

  it('keeps a t-way claim only when the realised orders hold every order at that strength', () => {
    const runs = [{ schedule: ['a', 'b'], enabledAt: imports(2) }]
    const at = (strength: number) => realisedIn(pair, strength, runs)
    expect(realisedGuarantee({ kind: 't-way', strength: 2 }, evidence(at))).toEqual({ kind: 'sampled' })
    runs.push({ schedule: ['b', 'a'], enabledAt: imports(2) })
    expect(realisedGuarantee({ kind: 't-way', strength: 2 }, evidence(at))).toEqual({ kind: 't-way', strength: 2 })
  })

  it('checks a t-way claim at its own strength only', () => {
    const asked: number[] = []
    realisedGuarantee({ kind: 't-way', strength: 3 }, evidence((strength) => { asked.push(strength); return false }, { aimed: 3 }))
    expect(asked).toEqual([3])
  })

  it('gives a covering plan cut short of its strength the highest lower strength its realised orders complete, down to 2', () => {
    const asked: number[] = []
    const realisedBelow = (limit: number) => (strength: number) => { asked.push(strength); return strength <= limit }
    expect(realisedGuarantee({ kind: 'sampled' }, evidence(realisedBelow(2), { aimed: 3 }))).toEqual({ kind: 't-way', strength: 2 })
    expect(realisedGuarantee({ kind: 'sampled' }, evidence(realisedBelow(3), { aimed: 4 }))).toEqual({ kind: 't-way', strength: 3 })
    expect(realisedGuarantee({ kind: 'sampled' }, evidence(realisedBelow(1), { aimed: 3 }))).toEqual({ kind: 'sampled' })
    // A 2-way plan cut short has no lower strength to claim; a sampling plan aims at none.
    asked.length = 0
    expect(realisedGuarantee({ kind: 'sampled' }, evidence(realisedBelow(9), { aimed: 2 }))).toEqual({ kind: 'sampled' })
    expect(realisedGuarantee({ kind: 'sampled' }, evidence(realisedBelow(9)))).toEqual({ kind: 'sampled' })
    expect(asked).toEqual([])
  })

  it('reads realised orders at any strength, requiring no order the system never allowed', () => {
    const every = [...linearExtensions(three)].map(schedule => ({ schedule, enabledAt: imports(3) }))
    expect(realisedIn(three, 3, every.slice(0, 5))).toBe(false)
    expect(realisedIn(three, 3, every)).toBe(true)
    // z was only ever requested after x and y were released: orders putting it first are not owed.
    const dependent = [{ schedule: ['x', 'y', 'z'], enabledAt: [0, 0, 2] }, { schedule: ['y', 'x', 'z'], enabledAt: [0, 0, 2] }]
    expect(realisedIn(three, 2, dependent)).toBe(true)
    expect(realisedIn(three, 2, dependent.map(run => ({ ...run, enabledAt: imports(3) })))).toBe(false)
  })
})

describe('one planner for scenarios and configurations', () => {
  it('gives the strategy the budget, capped by the space\'s own cap, and cuts nothing itself', () => {
    const space = spaceOf(['a', 'b', 'c', 'd'].map(id => ({ id, batches: 1 })))
    expect(planSpace('s', space, { strategy: 'exhaustive', budget: 10, seed: '0' }).schedules).toHaveLength(10)
    expect(planSpace('s', space, { strategy: 'exhaustive', budget: 10, seed: '0' }, 4).schedules).toHaveLength(4)
    expect(planSpace('s', space, { strategy: 'cover', budget: 100, seed: '0', strength: 2 }).plan.strength).toBe(2)
    expect(planSpace('s', space, { strategy: 'random', budget: 3, seed: '0' }).plan.strength).toBeUndefined()
  })

  it('seeds by the space\'s name: two names, two samples; one name, one sample', () => {
    const space = spaceOf(['a', 'b', 'c', 'd', 'e', 'f'].map(id => ({ id, batches: 1 })))
    const keys = (name: string) => planSpace(name, space, { strategy: 'random', budget: 5, seed: '0' }).schedules.map(row => row.join())
    expect(keys('one')).toEqual(keys('one'))
    expect(keys('one')).not.toEqual(keys('two'))
  })
})
