import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatOrderKey, parseOrderKey } from '../../../harness/explore/order-key.ts'

const label = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,6}(#[1-9]|#timer[1-9])?$/)

describe('an order key', () => {
  it('holds the released operations, then when each was requested', () => {
    expect(formatOrderKey(['b', 'a', 'a#2'], [0, 0, 2])).toBe('b,a,a#2/0,0,2')
  })

  it('reads back what it wrote, for any order of labels', () => {
    fc.assert(fc.property(fc.array(fc.tuple(label, fc.nat(20))), (pairs) => {
      const schedule = pairs.map(([op]) => op)
      const enabledAt = pairs.map(([, at]) => at)
      expect(parseOrderKey(formatOrderKey(schedule, enabledAt))).toEqual({ schedule, enabledAt })
    }))
  })

  it('reads an empty order back as empty, not as one empty label', () => {
    expect(formatOrderKey([], [])).toBe('/')
    expect(parseOrderKey('/')).toEqual({ schedule: [], enabledAt: [] })
  })
})
