import { describe, expect, it } from 'vitest'
import { middleHalf, ratioOver, roundRatios } from '../../bench/clock.ts'

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
