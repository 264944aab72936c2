/**
 * What plugin code leaves behind in the process during one interleaving:
 * timers and process listeners are not cordis effects, so disposing the
 * context cannot reach them. The harness records them while the interleaving
 * runs and removes them when it ends, so that no run can reach into the next.
 */

const original = {
  setTimeout: globalThis.setTimeout,
  setInterval: globalThis.setInterval,
  clearTimeout: globalThis.clearTimeout,
  clearInterval: globalThis.clearInterval,
}

/** The harness's own timers, immune to the sandbox. */
export const harnessTimers = original

type Listener = (...args: unknown[]) => void

function listenerSnapshot(): Map<string | symbol, Listener[]> {
  return new Map(process.eventNames().map(name => [name, process.rawListeners(name) as Listener[]]))
}

export class Sandbox {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private listeners: Map<string | symbol, Listener[]> | undefined

  /** Starts recording. */
  install(): void {
    if (this.listeners) return
    this.listeners = listenerSnapshot()
    const timers = this.timers
    const track = <T extends ReturnType<typeof setTimeout>>(handle: T): T => {
      timers.add(handle)
      return handle
    }
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => track(original.setTimeout(...args))) as typeof setTimeout
    globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => track(original.setInterval(...args))) as typeof setInterval
  }

  /** Restores the timer functions, clears every timer created meanwhile and removes every process listener added meanwhile. */
  dispose(): void {
    const before = this.listeners
    if (!before) return
    this.listeners = undefined
    globalThis.setTimeout = original.setTimeout
    globalThis.setInterval = original.setInterval
    for (const handle of this.timers) original.clearInterval(handle)
    this.timers.clear()
    for (const [name, now] of listenerSnapshot()) {
      const kept = before.get(name) ?? []
      for (const listener of now) {
        if (!kept.includes(listener)) process.removeListener(name, listener)
      }
    }
  }
}
