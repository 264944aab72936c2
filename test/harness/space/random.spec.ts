import { describe, expect, it } from 'vitest'
import { createRng, deriveSeed } from '../../../harness/space/random.ts'

describe('seeded randomness', () => {
  it('repeats its stream for a seed and differs between seeds', () => {
    const draw = (seed: string) => {
      const rng = createRng(seed)
      return Array.from({ length: 20 }, () => rng.uint32())
    }
    expect(draw('loadrace')).toEqual(draw('loadrace'))
    expect(draw('loadrace')).not.toEqual(draw('loadracE'))
    expect(draw('')).not.toEqual(draw('\u0000'))
  })

  it('is pinned, so runs are reproducible across machines and versions', () => {
    const rng = createRng('pinned')
    expect(Array.from({ length: 4 }, () => rng.int(1000))).toEqual([25, 254, 3, 893])
    expect(deriveSeed('ci', 'tool-order')).toBe('18e12ecce4732f46')
  })

  it('keeps int(n) in range and spreads it evenly', () => {
    const rng = createRng('spread')
    const counts = new Array<number>(6).fill(0)
    for (let i = 0; i < 60_000; i++) {
      const value = rng.int(6)
      expect(Number.isInteger(value) && value >= 0 && value < 6).toBe(true)
      counts[value] = (counts[value] as number) + 1
    }
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500)
    expect(() => rng.int(0)).toThrow(RangeError)
    expect(() => rng.int(1.5)).toThrow(RangeError)
  })

  it('shuffles in place into a permutation', () => {
    const items = Array.from({ length: 50 }, (_, i) => i)
    const shuffled = createRng('shuffle').shuffle(items)
    expect(shuffled).toBe(items)
    expect(shuffled.slice().sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(shuffled).not.toEqual(Array.from({ length: 50 }, (_, i) => i))
  })

  it('derives per-name seeds from identity, not from order', () => {
    expect(deriveSeed('ci', 'a')).toBe(deriveSeed('ci', 'a'))
    expect(deriveSeed('ci', 'a')).not.toBe(deriveSeed('ci', 'b'))
    expect(deriveSeed('ci', 'a')).not.toBe(deriveSeed('cj', 'a'))
    expect(deriveSeed('ab', 'c')).not.toBe(deriveSeed('a', 'bc'))
    expect(deriveSeed('ci', 'a')).toMatch(/^[0-9a-f]{16}$/)
  })
})
