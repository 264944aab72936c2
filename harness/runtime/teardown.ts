import type { Context } from '@deepseek-ai/cordis'

/**
 * Disposes every top-level fiber of `root`: the end of an interleaving.
 * Settles once every disposal (with its `dispose` listeners) has settled;
 * whoever awaits it bounds the wait, since a hung fiber must not hang the harness.
 */
export function disposeAll(root: Context): Promise<void> {
  const disposals: Promise<unknown>[] = []
  for (const runtime of [...root.registry.values()]) {
    for (const fiber of [...runtime.fibers]) {
      if (fiber.parent.fiber !== root.fiber) continue
      disposals.push(Promise.resolve(fiber.dispose()).catch(() => {}))
    }
  }
  return Promise.all(disposals).then(() => {})
}
