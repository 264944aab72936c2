/**
 * A `destroy` async hook that is on only while its owner tracks a resource.
 *
 * While any enabled async hook has a `destroy` callback, Node tracks the
 * destruction of every promise the process creates (a weak callback each,
 * `registerDestroyHook`, and the garbage collector's work on it); a boot of
 * the system makes thousands. Loadrace needs to hear of the destruction of a
 * few handles and jobs only (`real-io.ts`, `thread-pool.ts`), and only once
 * it has seen one created, so the hook is enabled then and disabled when
 * nothing is tracked any more. For the native handles, requests and jobs
 * tracked here, Node asks the hooks enabled when the resource is destroyed,
 * not those enabled when it was created, so nothing tracked is missed (a
 * promise is different: its destroy is registered at its creation, and no
 * promise is tracked).
 */
import { createHook } from 'node:async_hooks'

export interface DestroyWatch {
  /** Something is tracked now: from here on, `destroy` hears of every resource destroyed. */
  tracking(): void
  /** Disables the hook if nothing is tracked any more (`idle()`); `destroy` calls it by itself. */
  settle(): void
}

/** A watch that calls `destroy` with each destroyed resource's async id while `tracking()` was said and `idle()` is false. */
export function destroyWatch(destroy: (id: number) => void, idle: () => boolean): DestroyWatch {
  let enabled = false
  const watch: DestroyWatch = {
    tracking() {
      if (enabled) return
      enabled = true
      hook.enable()
    },
    settle() {
      if (!enabled || !idle()) return
      enabled = false
      hook.disable()
    },
  }
  const hook = createHook({
    destroy(id) {
      destroy(id)
      watch.settle()
    },
  })
  return watch
}
