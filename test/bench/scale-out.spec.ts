import { describe, expect, it } from 'vitest'
import type { StreamRun } from '../../bench/figures.ts'
import { combined, roundOrder, scaleOutFigures, together } from '../../bench/scale-out.ts'

describe('two streams at once', () => {
  it('adds both throughputs over the window in which both ran, not over each one\'s own run', () => {
    // The first stream finishes after 2 s; the second, alone on the machine from then on, speeds up.
    const first = { seconds: 2, cpuSeconds: 2.4, completions: [500, 1000, 1500, 2000] }
    const second = { seconds: 3, cpuSeconds: 3.3, completions: [600, 1200, 1800, 2200, 2400, 2600, 2800, 3000] }
    const run = together('two worker streams', [first, second])
    expect(run).toMatchObject({ configuration: 'two worker streams', processes: 2, seconds: 2, interleavings: 4 + 3, perSecond: 3.5 })
    expect(run.coresUsed).toBeCloseTo((2.4 + 3.3) / 3)
    expect(run.cpuMsPerInterleaving).toBeCloseTo((5700) / 12)
  })
})

describe('the order of a round', () => {
  it('runs every configuration once in each half, the second half the first reversed, and rotates which goes first', () => {
    const orders = [0, 1, 2, 3, 4].map(roundOrder)
    for (const order of orders) {
      expect(order).toHaveLength(8)
      expect(order.slice(4)).toEqual(order.slice(0, 4).reverse())
      expect(new Set(order.slice(0, 4)).size).toBe(4)
    }
    expect(orders.slice(0, 4).map(order => order[0])).toEqual(['one stream', 'two streams', 'two worker streams', '--workers 2'])
    expect(orders[4]).toEqual(orders[0])
  })

  it('under a machine whose speed drifts steadily over the round, gives every configuration the same mean speed', () => {
    // Run k of the round runs at speed 1 + 0.1 k: a configuration's two runs average 1.35 whichever it is.
    for (const order of [0, 1, 2, 3].map(roundOrder)) {
      const speeds = new Map<string, number[]>()
      order.forEach((configuration, k) => speeds.set(configuration, [...speeds.get(configuration) ?? [], 1 + 0.1 * k]))
      for (const [, pair] of speeds) expect((pair[0]! + pair[1]!) / 2).toBeCloseTo(1.35)
    }
  })
})

describe('a configuration\'s two runs in a round', () => {
  it('combine into its interleavings over its seconds, cores weighted by time and CPU by interleavings', () => {
    const first: StreamRun = { configuration: 'two streams', processes: 2, interleavings: 100, seconds: 1, perSecond: 100, coresUsed: 2, cpuMsPerInterleaving: 10 }
    const second: StreamRun = { configuration: 'two streams', processes: 2, interleavings: 300, seconds: 4, perSecond: 75, coresUsed: 1.5, cpuMsPerInterleaving: 14 }
    expect(combined([first, second])).toEqual({
      configuration: 'two streams', processes: 2, interleavings: 400, seconds: 5, perSecond: 80, coresUsed: (2 + 6) / 5, cpuMsPerInterleaving: (1000 + 4200) / 400,
    })
    expect(() => combined([first, { ...second, configuration: '--workers 2' }])).toThrow('combined() takes the runs of one configuration')
  })
})

describe('the scale-out figures', () => {
  const run = (configuration: StreamRun['configuration'], perSecond: number): StreamRun =>
    ({ configuration, processes: 2, interleavings: 100, seconds: 100 / perSecond, perSecond, coresUsed: 1.9, cpuMsPerInterleaving: 12 })

  it('judge each ratio by its median within the rounds, never by runs of different rounds; the rows are each configuration\'s best round', () => {
    // Round by round --workers 2 / two streams is 0.75, 0.9, 1.0 and 0.8 (median 0.85); the best runs' ratio, 110 / 120, is none of them.
    const rounds = [[90, 120, 100, 60], [100, 111.1111, 125, 50], [110, 110, 100, 55], [80, 100, 80, 40]].map(([pool, ceiling, workerStreams, one]) => [
      run('one stream', one!), run('two streams', ceiling!), run('two worker streams', workerStreams!), run('--workers 2', pool!),
    ])
    const figures = scaleOutFigures('eight-tools', rounds)
    expect(figures.runs.map(best => [best.configuration, best.perSecond])).toEqual([
      ['one stream', 60], ['two streams', 120], ['two worker streams', 125], ['--workers 2', 110],
    ])
    expect(figures).toMatchObject({ scenario: 'eight-tools', repeats: 4 })
    expect(figures.efficiency).toBeCloseTo(0.85)
    expect(figures.efficiencyRounds?.count).toBe(4)
    expect(figures.efficiencyRounds?.low).toBeCloseTo(0.75)
    expect(figures.efficiencyRounds?.high).toBeCloseTo(0.9)
    // 1.5, 2.0, 2.0, 2.0 → 2.0; 2.0, 2.2222, 2.0, 2.5 → 2.1111; 0.8333, 1.125, 0.9091, 0.8 → 0.8712; 0.9, 0.8, 1.1, 1.0 → 0.95.
    expect(figures.scaling).toBeCloseTo(2.0)
    expect(figures.ceilingScaling).toBeCloseTo(2.1111, 3)
    expect(figures.workerProcessEfficiency).toBeCloseTo((0.8333 + 0.9091) / 2, 3)
    expect(figures.poolEfficiency).toBeCloseTo(0.95)
  })

  it('name the configuration a round lacks', () => {
    expect(() => scaleOutFigures('eight-tools', [[run('one stream', 1), run('two streams', 2), run('--workers 2', 2)]]))
      .toThrow('a round of the scale-out of eight-tools has no run of two worker streams')
  })
})
