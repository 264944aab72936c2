/**
 * What plugin code leaves behind in the process during one interleaving:
 * timers and process listeners are not cordis effects, so disposing the
 * context cannot reach them. The harness records them while the interleaving
 * runs and removes them when it ends, so that no run can reach into the next.
 *
 * Timers are recorded where Node creates them (an async hook on `Timeout` and
 * `Immediate` resources), not by patching `setTimeout`: a plugin may schedule
 * through `node:timers`, `node:timers/promises`, `setImmediate`, or a function
 * it captured when its module was first imported.
 */
import { createHook } from 'node:async_hooks'

const clearScheduledTimeout = globalThis.clearTimeout
const clearScheduledImmediate = globalThis.clearImmediate
const createTimeout = globalThis.setTimeout

/** Nonzero while `harnessTimers` creates a timer: the sandbox leaves the harness's own timers alone. */
let exempt = 0

/** The harness's own timers, immune to the sandbox. */
export const harnessTimers = {
  setTimeout: ((...args: Parameters<typeof setTimeout>) => {
    exempt++
    try {
      return createTimeout(...args)
    } finally {
      exempt--
    }
  }) as typeof setTimeout,
  clearTimeout: clearScheduledTimeout,
}

type Listener = (...args: unknown[]) => void

function listenerSnapshot(): Map<string | symbol, Listener[]> {
  return new Map(process.eventNames().map(name => [name, process.rawListeners(name) as Listener[]]))
}

/** A scheduled callback as Node created it: cleared by `clearTimeout` (timers) or `clearImmediate` (immediates). */
interface Scheduled {
  kind: 'Timeout' | 'Immediate'
  resource: object
}

/** The sandbox recording now (interleavings of one thread run one at a time). */
let recording: Set<Scheduled> | undefined

const timerHook = createHook({
  init(_id, type, _trigger, resource: object) {
    if (recording === undefined || exempt > 0) return
    if (type === 'Timeout' || type === 'Immediate') recording.add({ kind: type, resource })
  },
})

function cancel({ kind, resource }: Scheduled): void {
  // The async hook hands out the very objects setTimeout/setImmediate return.
  if (kind === 'Timeout') clearScheduledTimeout(resource as ReturnType<typeof setTimeout>)
  else clearScheduledImmediate(resource as ReturnType<typeof setImmediate>)
}

export class Sandbox {
  private readonly scheduled = new Set<Scheduled>()
  private listeners: Map<string | symbol, Listener[]> | undefined

  /** Starts recording. */
  install(): void {
    if (this.listeners) return
    this.listeners = listenerSnapshot()
    recording = this.scheduled
    timerHook.enable()
  }

  /** Stops recording, clears every timer and immediate created meanwhile and removes every process listener added meanwhile. */
  dispose(): void {
    const before = this.listeners
    if (!before) return
    this.listeners = undefined
    if (recording === this.scheduled) {
      recording = undefined
      timerHook.disable()
    }
    for (const scheduled of this.scheduled) cancel(scheduled)
    this.scheduled.clear()
    for (const [name, now] of listenerSnapshot()) {
      const kept = before.get(name) ?? []
      for (const listener of now) {
        if (!kept.includes(listener)) process.removeListener(name, listener)
      }
    }
  }
}
