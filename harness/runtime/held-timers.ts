/**
 * Timers of the system under test, held until the scheduler releases them.
 *
 * Node creates every timer — `setTimeout`, `setInterval`, `node:timers`,
 * `node:timers/promises`, a `setTimeout` a module captured long ago — as a
 * `Timeout` object, and announces it to async hooks from inside its
 * constructor, before the timer is inserted into Node's timer lists. A timer
 * created in the system's scope (see `sut-context.ts`) is handed to its
 * interleaving there; the interleaving holds it with {@link holdTimer}, which
 * moves its due time out of reach. Releasing it ({@link fireSoon}) re-arms it
 * to fire in 1 ms, so its callback runs through Node's own timer machinery,
 * in its own async context, with its own arguments; an interval is then held
 * again until its next release. `clearTimeout` keeps working throughout.
 *
 * Immediates are not held (they run before the scheduler's next turn), but
 * the system's ones are counted so that quiescence knows work is queued.
 */
import { createHook } from 'node:async_hooks'
import { currentScope } from './sut-context.ts'

/** The longest delay Node accepts: a held timer never comes due on its own. */
const HELD_DELAY = 2 ** 31 - 1

/** The fields of Node's `Timeout` this module reads and writes (stable across Node 20–24). */
interface NodeTimeout {
  _idleTimeout: number
  _repeat: number | null
  _onTimeout: ((...args: unknown[]) => unknown) | null
  _destroyed: boolean
  refresh(): unknown
  hasRef(): boolean
}

/** What the scheduler knows about one held timer. */
export interface HeldTimer {
  /** The delay the system asked for, in ms (Node's coercion applied: at least 1). */
  readonly delay: number
  /** Whether it repeats (`setInterval`). */
  readonly repeats: boolean
  /** Whether `clearTimeout`/`clearInterval` cancelled it. */
  cancelled(): boolean
  /** Whether it keeps the process alive (counted among live handles while held). */
  refed(): boolean
}

const hook = createHook({
  init(_id, type, _trigger, resource) {
    if (type !== 'Timeout' && type !== 'Immediate') return
    const scope = currentScope()
    if (scope === undefined) return
    if (type === 'Timeout') scope.monitor.timerCreated(resource, scope.chain)
    else scope.monitor.immediateQueued()
  },
})
hook.enable()

function asTimeout(timer: object): NodeTimeout {
  return timer as NodeTimeout
}

/**
 * Holds a timer the system just created (call it from `timerCreated`, i.e.
 * inside the `Timeout` constructor): it will not fire until {@link fireSoon}.
 * `onFired` runs each time Node has run its callback.
 */
export function holdTimer(timer: object, onFired: () => void): HeldTimer {
  const node = asTimeout(timer)
  const delay = node._idleTimeout
  const repeats = node._repeat !== null
  node._idleTimeout = HELD_DELAY
  if (repeats) node._repeat = HELD_DELAY
  const callback = node._onTimeout
  node._onTimeout = function (this: unknown, ...args: unknown[]) {
    try {
      return callback?.apply(this, args)
    } finally {
      onFired()
    }
  }
  return {
    delay,
    repeats,
    cancelled: () => node._destroyed,
    refed: () => node.hasRef(),
  }
}

/** Whether a timer loadrace does not hold (see `Control`) may still run its callback: neither run (a timeout) nor cleared. */
export function timerPending(timer: object): boolean {
  return !asTimeout(timer)._destroyed
}

/** Releases a held timer: Node runs its callback about 1 ms from now (an interval is held again afterwards). */
export function fireSoon(timer: object): void {
  const node = asTimeout(timer)
  node._idleTimeout = 1
  node.refresh()
}
