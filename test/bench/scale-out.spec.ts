import { describe, expect, it } from 'vitest'
import { together } from '../../bench/scale-out.ts'

describe('two streams at once', () => {
  it('adds both throughputs over the window in which both ran, not over each one\'s own run', () => {
    // The first stream finishes after 2 s; the second, alone on the machine from then on, speeds up.
    const first = { seconds: 2, cpuSeconds: 2.4, completions: [500, 1000, 1500, 2000] }
    const second = { seconds: 3, cpuSeconds: 3.3, completions: [600, 1200, 1800, 2200, 2400, 2600, 2800, 3000] }
    const run = together([first, second])
    expect(run).toMatchObject({ configuration: 'two streams', processes: 2, seconds: 2, interleavings: 4 + 3, perSecond: 3.5 })
    expect(run.coresUsed).toBeCloseTo((2.4 + 3.3) / 3)
    expect(run.cpuMsPerInterleaving).toBeCloseTo((5700) / 12)
  })
})
