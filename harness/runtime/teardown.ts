import type { Context } from '@deepseek-ai/cordis'

/**
 * Disposes every top-level fiber of `root` without waiting for the disposals
 * (a hung fiber must not hang the harness): the end of an interleaving.
 */
export function disposeAll(root: Context): void {
  for (const runtime of [...root.registry.values()]) {
    for (const fiber of [...runtime.fibers]) {
      if (fiber.parent.fiber !== root.fiber) continue
      void fiber.dispose().catch(() => {})
    }
  }
}
