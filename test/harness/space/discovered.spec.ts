/** The discovered space, deviations from it, and the realised t-orders a `t-way` claim is checked against. */
import { describe, expect, it } from 'vitest'
import { deviation, discoveredSpace, sameSpace } from '../../../harness/space/discovered.ts'
import { RealisedOrders } from '../../../harness/space/coverage.ts'
import { spaceOf } from '../../../harness/space/space.ts'
import { linearExtensions } from '../../../harness/space/enumerate.ts'

const declared = spaceOf([{ id: 'a', batches: 2 }, { id: 'b', batches: 1 }])

describe('discovered space', () => {
  it('adds each run operation to its plugin\'s chain in run order, keeps unreached declared ones at the end, appends new chains', () => {
    const space = discoveredSpace(declared, ['a', 'a#timer1', 'b', '_root#timer1', 'b#timer1'])
    expect(space.chains).toEqual([
      { plugin: 'a', ops: ['a', 'a#timer1', 'a#2'] },
      { plugin: 'b', ops: ['b', 'b#timer1'] },
      { plugin: '_root', ops: ['_root#timer1'] },
    ])
    expect(sameSpace(space, declared)).toBe(false)
    expect(sameSpace(discoveredSpace(declared, ['a', 'a#2', 'b']), declared)).toBe(true)
  })

  it('names a run outside the space: an unknown operation, or a chain run against its order; unreached operations are fine', () => {
    const space = discoveredSpace(declared, ['a', 'a#timer1', 'a#2', 'b'])
    expect(deviation(space, ['b', 'a', 'a#timer1', 'a#2'])).toBeUndefined()
    expect(deviation(space, ['b', 'a'])).toBeUndefined()
    expect(deviation(space, ['a', 'b', 'b#timer1'])).toMatch(/b#timer1 is not in the discovered space/)
    expect(deviation(space, ['a', 'a#2', 'a#timer1', 'b'])).toMatch(/a#timer1 ran after a later operation of its chain/)
  })
})

describe('realised t-orders', () => {
  const three = spaceOf([{ id: 'x', batches: 1 }, { id: 'y', batches: 1 }, { id: 'z', batches: 1 }])
  const importsOnly = [0, 0, 0]

  it('are complete only once every order of every t operations occurred', () => {
    const realised = RealisedOrders.of(three, 3)!
    realised.add(['x', 'y', 'z'], importsOnly)
    realised.add(['z', 'y', 'x'], importsOnly)
    expect(realised.counts()).toEqual({ realised: 2, total: 6 })
    expect(realised.complete()).toBe(false)
    for (const schedule of linearExtensions(three)) realised.add(schedule, importsOnly)
    expect(realised.complete()).toBe(true)
  })

  it('do not require an order the system never made possible (an operation only ever requested after another)', () => {
    const chained = spaceOf([{ id: 'p', batches: 2 }, { id: 'q', batches: 1 }])
    const realised = RealisedOrders.of(chained, 2)!
    // p#2 is only ever requested once q has been released: q → p#2 is a dependency, so p#2-before-q is not required.
    realised.add(['p', 'q', 'p#2'], [0, 0, 2])
    realised.add(['q', 'p', 'p#2'], [0, 0, 2])
    expect(realised.counts()).toEqual({ realised: 4, total: 4 })
    expect(realised.complete()).toBe(true)
    // A run that requested p#2 right after p, before q was released, removes the inferred dependency: p#2-before-q is now required.
    realised.add(['p', 'q', 'p#2'], [0, 0, 1])
    expect(realised.counts()).toEqual({ realised: 4, total: 5 })
    expect(realised.complete()).toBe(false)
  })
})
