import type { Context, Events } from '@deepseek-ai/cordis'

type Listener = (...args: unknown[]) => unknown

/**
 * Emits a live cordis event with per-listener containment: a listener that
 * throws or rejects is logged and does not stop the others, nor the caller.
 */
export function notifyContained<K extends keyof Events>(ctx: Context, name: K, ...args: Parameters<Events[K]>): void {
  const dispatchArgs: unknown[] = [name, ...args]
  const callbacks = ctx.events.dispatch('emit', dispatchArgs) as Listener[]
  for (const callback of callbacks) {
    try {
      const returned = callback(...args)
      if (returned instanceof Promise) {
        returned.catch((error: unknown) => ctx.logger.warn(`"${String(name)}" listener rejected: %s`, String(error)))
      }
    } catch (error) {
      ctx.logger.warn(`"${String(name)}" listener threw: %s`, String(error))
    }
  }
}
