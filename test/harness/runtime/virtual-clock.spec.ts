import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VirtualClock, type VirtualTime } from '../../../harness/runtime/virtual-clock.ts'

/**
 * The virtual clock on its own: which release orders of held timers the
 * deadlines allow, and where time stands after each release.
 */

describe('the virtual clock', () => {
  it('puts a timer set up now its delay after the latest release', () => {
    const clock = new VirtualClock()
    expect(clock.dueIn(5)).toEqual({ anchor: 0, offset: 5 })
    clock.releaseFree()
    expect(clock.now()).toEqual({ anchor: 1, offset: 0 })
    expect(clock.dueIn(7)).toEqual({ anchor: 1, offset: 7 })
  })

  it('lets timers set up together fire only in deadline order, ties either way', () => {
    const clock = new VirtualClock()
    const short = clock.dueIn(1)
    const long = clock.dueIn(100)
    const tie = clock.dueIn(1)
    expect(clock.canFire(long, [short, tie])).toBe(false)
    expect(clock.canFire(short, [long, tie])).toBe(true)
    expect(clock.canFire(tie, [long, short])).toBe(true)
  })

  it('moves time to a fired timer\'s deadline, so a timer its callback sets up is due after it, not before an earlier-due held one', () => {
    const clock = new VirtualClock()
    const first = clock.dueIn(50)
    const held = clock.dueIn(55)
    clock.fire(first, [held])
    expect(clock.now()).toEqual(first)
    // Set up in the 50 ms timer's callback: due at 60 ms, after the held 55 ms timer.
    const chained = clock.dueIn(10)
    expect(chained).toEqual({ anchor: 0, offset: 60 })
    expect(clock.canFire(chained, [held])).toBe(false)
    expect(clock.canFire(held, [chained])).toBe(true)
  })

  it('lets an uncontrolled release come at any time: a timer set up after it may fire after one set up before it, whatever their delays', () => {
    const clock = new VirtualClock()
    const before = clock.dueIn(1)
    clock.releaseFree()
    const after = clock.dueIn(50)
    // The 50 ms timer is due at least 50 ms in, after the 1 ms one however long the import took.
    expect(clock.canFire(before, [after])).toBe(true)
    expect(clock.canFire(after, [before])).toBe(false)
    const other = new VirtualClock()
    const early = other.dueIn(100)
    other.releaseFree()
    const late = other.dueIn(1)
    // An import that took 99 ms or more lets the later 1 ms timer fire first; one that took less does not: both orders are possible.
    expect(other.canFire(late, [early])).toBe(true)
    expect(other.canFire(early, [late])).toBe(true)
  })

  it('orders held timers by the earliest times consistent with what was released', () => {
    const clock = new VirtualClock()
    const a = clock.dueIn(30)
    clock.releaseFree()
    const b = clock.dueIn(10)
    expect(clock.earliest([a, b])).toEqual([30, 10])
  })

  it('admits exactly the delay-sorted orders of timers set up together (property)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (delays, picks) => {
      const clock = new VirtualClock()
      const held: VirtualTime[] = delays.map(delay => clock.dueIn(delay))
      const fired: number[] = []
      while (held.length > 0) {
        const allowed = held.filter((time, i) => clock.canFire(time, held.filter((_, j) => j !== i)))
        // The allowed ones are exactly those due earliest.
        const earliest = Math.min(...held.map(time => time.offset))
        expect(allowed.map(time => time.offset)).toEqual(held.filter(time => time.offset === earliest).map(time => time.offset))
        const choice = allowed[(picks[fired.length] ?? 0) % allowed.length]!
        held.splice(held.indexOf(choice), 1)
        clock.fire(choice, held)
        fired.push(choice.offset)
      }
      expect(fired).toEqual([...delays].sort((x, y) => x - y))
    }))
  })
})
