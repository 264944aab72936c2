import type { Fiber } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/cordis-plugin-loader'

/**
 * Who registered something, as the tool registry records it.
 *
 * The owner is the loader entry id when the fiber (or one of its ancestors)
 * belongs to a loader entry, else the fiber's plugin name.
 */
export function fiberOwner(fiber: Fiber): string {
  for (let cursor = fiber; cursor.runtime !== null; cursor = cursor.parent.fiber) {
    const id = cursor.entry?.options.id
    if (id !== undefined) return id
  }
  return fiber.name
}

/**
 * The depth of a fiber in the service dependency graph.
 *
 * The root fiber has depth 0. Any other fiber is one deeper than each fiber
 * providing a service it injects (services of the root count as depth 0
 * providers and add nothing), and no shallower than its parent fiber, since
 * it only runs while its parent does; a fiber injecting nothing a plugin
 * provides, under the root, has depth 0. Providers are read from the fiber's
 * snapshot of its injected services (`fiber.store`), so this is meaningful
 * while the fiber is loading or active.
 */
export function fiberDepth(fiber: Fiber, visiting: Set<Fiber> = new Set()): number {
  if (fiber.runtime === null || visiting.has(fiber)) return 0
  visiting.add(fiber)
  let depth = fiberDepth(fiber.parent.fiber, visiting)
  for (const name of Object.keys(fiber.inject)) {
    const provider = fiber.store?.[name]?.fiber
    if (provider === undefined || provider.runtime === null) continue
    depth = Math.max(depth, 1 + fiberDepth(provider, visiting))
  }
  visiting.delete(fiber)
  return depth
}
