import { describe, expect, it } from 'vitest'
import { IMMEDIATE_TURNS, quiesce, tick, type Activity } from '../../../harness/runtime/quiescence.ts'

/**
 * Quiescence on its own: it returns after a macrotask turn in which nothing
 * progressed, nothing was queued and nothing was in flight — never sooner —
 * and it gives up at the deadline.
 */

/** Activity counters that the test moves by hand, and the macrotask turns quiescence has waited so far. */
function counters() {
  const state = { progress: 0, immediates: 0, busy: false, turns: 0 }
  const activity: Activity = { progress: () => state.progress, immediates: () => state.immediates, busy: () => state.busy }
  return { state, activity }
}

/** Counts macrotask turns while `run` is under way, calling `each(turn)` once per turn. */
async function counting<T>(run: Promise<T>, each: (turn: number) => void): Promise<{ result: T, turns: number }> {
  let turns = 0
  let done = false
  const result = run.finally(() => { done = true })
  while (!done) {
    each(++turns)
    await tick()
  }
  return { result: await result, turns }
}

const LATER = () => Date.now() + 10_000

describe('quiescence', () => {
  it('returns after one quiet macrotask turn', async () => {
    const { activity } = counters()
    const { result, turns } = await counting(quiesce(activity, LATER()), () => {})
    expect(result).toBe(true)
    expect(turns).toBeLessThanOrEqual(2)
  })

  it('waits while the system makes progress, including progress made in the last turn it watched', async () => {
    const { state, activity } = counters()
    // Progress in each of the first five turns, none after.
    const { result, turns } = await counting(quiesce(activity, LATER()), turn => { if (turn <= 5) state.progress++ })
    expect(result).toBe(true)
    expect(turns).toBeGreaterThanOrEqual(6)
  })

  it('returns false once the deadline passes while the system keeps making progress', async () => {
    const { state, activity } = counters()
    const { result } = await counting(quiesce(activity, Date.now() + 30), () => { state.progress++ })
    expect(result).toBe(false)
  })

  it('waits while I/O is in flight or a released timer has yet to run', async () => {
    const { state, activity } = counters()
    state.busy = true
    let settled = false
    const waiting = quiesce(activity, LATER()).then(value => { settled = value })
    await new Promise(resolve => setTimeout(resolve, 20))
    expect(settled).toBe(false)
    state.busy = false
    await waiting
    expect(settled).toBe(true)
  })

  it('counts a system that only queues immediates as at rest after a bounded number of turns', async () => {
    const { state, activity } = counters()
    const { result, turns } = await counting(quiesce(activity, LATER()), () => { state.immediates++ })
    expect(result).toBe(true)
    expect(turns).toBeGreaterThanOrEqual(IMMEDIATE_TURNS)
    expect(turns).toBeLessThanOrEqual(IMMEDIATE_TURNS + 2)
  })
})
