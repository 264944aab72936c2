/**
 * Quiescence: after releasing one operation the scheduler lets everything that
 * can run without another release run to completion before it chooses the next.
 * Microtasks all drain before a macrotask turn, so a few `setImmediate` turns
 * with no observable progress mean the system is at rest.
 */

const immediate = globalThis.setImmediate

/** One macrotask turn. */
export function tick(): Promise<void> {
  return new Promise(resolve => immediate(resolve))
}

/**
 * Waits until `progress()` stops changing across two consecutive macrotask
 * turns, or until `deadline` (epoch ms). Returns false when the deadline won.
 */
export async function quiesce(progress: () => number, deadline: number): Promise<boolean> {
  let last = progress()
  await tick()
  for (;;) {
    await tick()
    const now = progress()
    if (now === last) return true
    if (Date.now() >= deadline) return false
    last = now
  }
}
