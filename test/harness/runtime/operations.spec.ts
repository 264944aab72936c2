import { afterEach, describe, expect, it } from 'vitest'
import { OperationPool } from '../../../harness/runtime/operations.ts'
import { runInSut } from '../../../harness/runtime/sut-context.ts'

/**
 * The operation pool on its own, with real Node timers: what it holds, what
 * it lets go next, and what it records of the boot. Timers are created inside
 * `runInSut`, as the system's code creates them during an interleaving.
 */

const pools: OperationPool[] = []
const timers: NodeJS.Timeout[] = []

function pool(): OperationPool {
  const created = new OperationPool()
  pools.push(created)
  return created
}

/** A timer of `ms` set up by `chain`'s code; `onFire` runs when it is released and fires. */
function timer(host: OperationPool, chain: string, ms: number, onFire: () => void = () => {}): void {
  timers.push(runInSut(host, chain, () => setTimeout(onFire, ms)))
}

afterEach(() => {
  for (const host of pools.splice(0)) host.close()
  for (const handle of timers.splice(0)) clearTimeout(handle)
})

describe('the operation pool', () => {
  it('settles a held operation only when it is released, with what it produces then', async () => {
    const host = pool()
    let produced = 0
    const settled = host.hold('tool-a', { kind: 'value', produce: () => ++produced })
    let value: number | undefined
    void settled.then(result => { value = result })
    await new Promise(resolve => setImmediate(resolve))
    expect(value).toBeUndefined()
    expect(host.pending()).toEqual(['tool-a'])
    host.release('tool-a')
    expect(await settled).toBe(1)
    expect(host.pending()).toEqual([])
    expect(host.released()).toEqual(['tool-a'])
  })

  it('refuses the same operation twice in one interleaving, and a release of what is not pending', () => {
    const host = pool()
    void host.hold('tool-a', { kind: 'never' })
    expect(() => host.hold('tool-a', { kind: 'never' })).toThrow('operation "tool-a" was requested twice in one interleaving')
    host.release('tool-a')
    expect(() => host.hold('tool-a', { kind: 'never' })).toThrow('requested twice')
    expect(() => host.release('tool-b')).toThrow('operation "tool-b" is not pending')
  })

  it('tells when every named operation has been requested', async () => {
    const host = pool()
    let done = false
    void host.whenRequested(['a', 'b']).then(() => { done = true })
    void host.hold('a', { kind: 'never' })
    await Promise.resolve()
    expect(done).toBe(false)
    void host.hold('b', { kind: 'never' })
    await Promise.resolve()
    expect(done).toBe(true)
  })

  it('holds the timers the system sets up, named after the chain whose code set them up', () => {
    const host = pool()
    timer(host, 'tool-a', 5)
    timer(host, 'tool-a', 5)
    timer(host, 'tool-b', 5)
    expect(host.pending()).toEqual(['tool-a#timer1', 'tool-a#timer2', 'tool-b#timer1'])
    expect(host.hasHeldTimers()).toBe(true)
  })

  it('lets go a held import or batch gap first, in request order, before any timer', () => {
    const host = pool()
    timer(host, 'tool-a', 1)
    void host.hold('tool-c', { kind: 'never' })
    void host.hold('tool-b', { kind: 'never' })
    expect(host.next()).toBe('tool-c')
    expect(host.next(label => label !== 'tool-c')).toBe('tool-b')
  })

  it('lets timers go in deadline order, not the order they were set up in', () => {
    const host = pool()
    timer(host, 'tool-slow', 50)
    timer(host, 'tool-fast', 1)
    expect(host.next()).toBe('tool-fast#timer1')
    expect(host.canRelease('tool-slow#timer1')).toBe(false)
    expect(host.canRelease('tool-fast#timer1')).toBe(true)
  })

  it('lets timers set up after separate imports go in deadline order when time advances', () => {
    const host = pool()
    void host.hold('tool-slow', { kind: 'value', produce: () => undefined })
    void host.hold('tool-fast', { kind: 'value', produce: () => undefined })
    host.release('tool-slow')
    timer(host, 'tool-slow', 50)
    host.release('tool-fast')
    timer(host, 'tool-fast', 1)
    // Both orders are possible (the second import may have taken 49 ms or more), but the earliest is the 1 ms timer's.
    expect(host.canRelease('tool-slow#timer1')).toBe(true)
    expect(host.canRelease('tool-fast#timer1')).toBe(true)
    expect(host.next()).toBe('tool-fast#timer1')
  })

  it('breaks a tie of deadlines by the order the timers were set up in', () => {
    const host = pool()
    timer(host, 'tool-b', 5)
    timer(host, 'tool-a', 5)
    expect(host.next()).toBe('tool-b#timer1')
  })

  it('fires a released timer through Node, in its own callback, and counts it as progress', async () => {
    const host = pool()
    let fired = false
    timer(host, 'tool-a', 10_000, () => { fired = true })
    const before = host.version
    host.release('tool-a#timer1')
    expect(host.isFiring()).toBe(true)
    await new Promise(resolve => setTimeout(resolve, 20))
    expect(fired).toBe(true)
    expect(host.isFiring()).toBe(false)
    expect(host.version).toBeGreaterThan(before + 1)
  })

  it('records the boot\'s releases with when each could first go, and leaves releases out of the record in the turns or when told to', () => {
    const host = pool()
    void host.hold('a', { kind: 'never' })
    void host.hold('b', { kind: 'never' })
    host.release('b')
    void host.hold('c', { kind: 'never' })
    host.release('a')
    host.release('c')
    expect(host.released()).toEqual(['b', 'a', 'c'])
    // a and b were requested before anything was released; c after one release.
    expect(host.enabledAt()).toEqual([0, 0, 1])
    void host.hold('d', { kind: 'never' })
    host.release('d', false)
    host.phase = 'turns'
    void host.hold('e', { kind: 'never' })
    host.release('e')
    expect(host.released()).toEqual(['b', 'a', 'c'])
  })

  it('forgets a timer the system cancelled', () => {
    const host = pool()
    timer(host, 'tool-a', 5)
    clearTimeout(timers.pop()!)
    expect(host.pending()).toEqual([])
    expect(host.hasHeldTimers()).toBe(false)
  })

  it('holds an interval again after each firing, as a new operation marked as a repeat', async () => {
    const host = pool()
    let runs = 0
    timers.push(runInSut(host, 'tool-a', () => setInterval(() => { runs++ }, 5)))
    host.release('tool-a#timer1')
    await new Promise(resolve => setTimeout(resolve, 20))
    expect(runs).toBe(1)
    expect(host.pending()).toEqual(['tool-a#timer2'])
    expect(host.isRepeat('tool-a#timer2')).toBe(true)
  })

  it('holds nothing once closed', () => {
    const host = pool()
    host.close()
    timer(host, 'tool-a', 5)
    expect(host.pending()).toEqual([])
  })
})
