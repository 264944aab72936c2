/**
 * Quiescence: after releasing one operation the scheduler lets everything that
 * can run without another release run to completion before it chooses the
 * next. Microtasks all drain before a macrotask turn; immediates the system
 * queues, timers it sets up and operations it requests all count as progress
 * (see `operations.ts`); I/O in flight and released timers that have not run
 * yet are waited for. The system is at rest after a macrotask turn in which
 * nothing progressed and nothing is in flight.
 */
import { wallNow } from './real-clock.ts'
import { harnessTimers } from './sandbox.ts'

const immediate = globalThis.setImmediate

/** One macrotask turn. */
export function tick(): Promise<void> {
  return new Promise(resolve => immediate(resolve))
}

/** Waits `ms` on a timer the sandbox and the scheduler leave alone. */
export function pause(ms: number): Promise<void> {
  return new Promise(resolve => harnessTimers.setTimeout(resolve, ms))
}

/**
 * How many macrotask turns in a row may pass in which the system did nothing
 * but queue immediates before it counts as at rest: a plugin that re-queues an
 * immediate forever runs a background loop, not boot work. (A count, not a
 * time: the same code reaches the same decision on every run.)
 */
export const IMMEDIATE_TURNS = 64

/** Counters the scheduler watches. */
export interface Activity {
  /** Operations requested or released, timers run, statuses changed: progress of the system's work. */
  progress(): number
  /** Immediates the system queued so far. */
  immediates(): number
  /** I/O in flight or a released timer yet to run. */
  busy(): boolean
}

/**
 * Waits until a macrotask turn passes with no progress, no immediate queued
 * and nothing busy (or only immediates queued for {@link IMMEDIATE_TURNS}
 * turns), or until `deadline` (epoch ms). Returns false when the deadline won.
 */
export async function quiesce(activity: Activity, deadline: number): Promise<boolean> {
  let immediateOnly = 0
  for (;;) {
    const progress = activity.progress()
    const immediates = activity.immediates()
    await tick()
    const inFlight = activity.busy()
    if (!inFlight && activity.progress() === progress) {
      if (activity.immediates() === immediates || ++immediateOnly >= IMMEDIATE_TURNS) return true
    } else {
      immediateOnly = 0
    }
    if (wallNow() >= deadline) return false
    // Waiting for I/O or a released timer: sleep briefly instead of spinning through turns.
    if (inFlight) await pause(1)
  }
}
