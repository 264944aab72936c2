import { describe, expect, it } from 'vitest'
import type { StreamRun } from '../../bench/figures.ts'
import { scaleOutFigures, together } from '../../bench/scale-out.ts'

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

describe('the scale-out figures', () => {
  const run = (configuration: StreamRun['configuration'], perSecond: number): StreamRun =>
    ({ configuration, processes: 2, interleavings: 100, seconds: 100 / perSecond, perSecond, coresUsed: 1.9, cpuMsPerInterleaving: 12 })

  it('compare the best run of each configuration, and split --workers 2\'s loss against the ceiling into the worker processes\' and the pool\'s', () => {
    const rounds = [
      [run('--workers 2', 120), run('two streams', 160), run('one stream', 90), run('two worker streams', 140)],
      [run('two streams', 150), run('--workers 2', 135), run('two worker streams', 150), run('one stream', 100)],
    ]
    const figures = scaleOutFigures('eight-tools', rounds)
    expect(figures.runs.map(best => [best.configuration, best.perSecond])).toEqual([
      ['one stream', 100], ['two streams', 160], ['two worker streams', 150], ['--workers 2', 135],
    ])
    expect(figures).toMatchObject({ scenario: 'eight-tools', repeats: 2 })
    expect(figures.scaling).toBeCloseTo(1.35)
    expect(figures.ceilingScaling).toBeCloseTo(1.6)
    expect(figures.efficiency).toBeCloseTo(135 / 160)
    expect(figures.workerProcessEfficiency).toBeCloseTo(150 / 160)
    expect(figures.poolEfficiency).toBeCloseTo(135 / 150)
  })

  it('give the middle half of --workers 2 over two streams within each round, never across rounds', () => {
    // Round by round 0.75, 0.9, 1.0 and 0.8; the best runs' ratio, 110 / 120, is none of them.
    const rounds = [[90, 120], [100, 111.1111], [110, 110], [80, 100]].map(([pool, ceiling]) => [
      run('one stream', 80), run('two streams', ceiling!), run('two worker streams', 100), run('--workers 2', pool!),
    ])
    const figures = scaleOutFigures('eight-tools', rounds)
    expect(figures.efficiency).toBeCloseTo(110 / 120)
    expect(figures.efficiencyRounds?.count).toBe(4)
    expect(figures.efficiencyRounds?.low).toBeCloseTo(0.75)
    expect(figures.efficiencyRounds?.high).toBeCloseTo(0.9)
  })
})
