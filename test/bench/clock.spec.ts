import { describe, expect, it } from 'vitest'
import { compareTasks, middleHalf, ratioOver, roundRatios, withCosts } from '../../bench/clock.ts'

const cost = (perRound: number[]) => ({ name: 'task', msPerCall: 0, calls: 0, ratio: 1, perRound, stackTraceLimit: 10 })

describe('ratios of tasks timed round by round', () => {
  it('divides round by round, over the rounds both ran in, and takes the median of those', () => {
    expect(roundRatios(cost([2, 6, 12]), cost([1, 2, 3, 4]))).toEqual([2, 3, 4])
    expect(roundRatios(cost([2, 6, 12, 20]), cost([1, 2, 3]))).toEqual([2, 3, 4])
    expect(ratioOver(cost([2, 6, 12]), cost([1, 2, 3]))).toBe(3)
    expect(ratioOver(cost([2, 6, 12, 20]), cost([1, 2, 3, 4]))).toBe(3.5)
  })

  it('gives the middle half as the nearest-rank 25th and 75th percentiles, whatever the order', () => {
    expect(middleHalf([10, 1, 9, 2, 8, 3, 7, 4, 6, 5])).toEqual({ low: 3, high: 8 })
    expect(middleHalf([4, 3, 2, 1])).toEqual({ low: 1, high: 3 })
    expect(middleHalf([7])).toEqual({ low: 7, high: 7 })
    expect(() => middleHalf([])).toThrow(/no values/)
  })
})

describe('compareTasks', () => {
  it('charges a cost that comes every few calls at its share: the per-call mean of each round, not the median sample', async () => {
    // A virtual clock only the tasks move: 'steady' costs 2 a call; 'periodic' 1, and 9 every fourth call (a
    // collection, say), 3 a call on average, though three samples in four cost 1.
    let clock = 0
    let calls = 0
    const costs = await compareTasks([
      { name: 'steady', run: () => { clock += 2 } },
      { name: 'periodic', run: () => { clock += ++calls % 4 === 0 ? 9 : 1 } },
    ], { rounds: 3, msPerRound: 400, minSamples: 8, batch: 1, warmupCalls: 4, now: () => clock })
    expect(costs.map(cost => cost.name)).toEqual(['steady', 'periodic'])
    expect(costs[0]!.msPerCall).toBe(2)
    expect(costs[1]!.msPerCall).toBeCloseTo(3, 1)
    expect(costs[1]!.ratio).toBeCloseTo(1.5, 1)
    expect(costs[1]!.perRound).toHaveLength(3)
  })
})

describe('withCosts', () => {
  it('gives each described variant its own task\'s cost, ratio, limit and rounds, in order', () => {
    const costs = [{ ...cost([1, 2]), msPerCall: 1.5 }, { ...cost([3, 6]), msPerCall: 4.5, ratio: 3, stackTraceLimit: null }]
    expect(withCosts([{ name: 'floor' }, { name: 'harness' }], costs)).toEqual([
      { name: 'floor', msPerRun: 1.5, ratio: 1, stackTraceLimit: 10, perRound: [1, 2] },
      { name: 'harness', msPerRun: 4.5, ratio: 3, stackTraceLimit: null, perRound: [3, 6] },
    ])
    expect(() => withCosts([{ name: 'floor' }, { name: 'harness' }], costs.slice(0, 1))).toThrow(/variant 2 of 2/)
  })
})
