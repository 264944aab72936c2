import { isSchedule, pluginOf, type Schedule, type Space } from '../space/space.ts'
import type { RunCache } from '../runners/run-cache.ts'

/**
 * The two schedules that put plugin `b`'s import right after, and right
 * before, plugin `a`'s import, everything else keeping its order from `base`.
 * They differ by exactly one adjacent swap of a and b, so different bytes mean
 * the relative order of a and b alone changes the output. Undefined when
 * moving b's import would break b's own chain (its later batches).
 */
export function adjacentOrders(space: Space, base: Schedule, a: string, b: string): [Schedule, Schedule] | undefined {
  const rest = base.filter(op => op !== b)
  const at = rest.indexOf(a)
  const after = [...rest.slice(0, at + 1), b, ...rest.slice(at + 1)]
  const before = [...rest.slice(0, at), b, ...rest.slice(at)]
  return isSchedule(space, after) && isSchedule(space, before) ? [after, before] : undefined
}

/**
 * Which pairs of `plugins` change the bytes when swapped next to each other
 * around the `base` interleaving — the data of the report's plugin × plugin matrix.
 * The pair blamed by the minimal counterexample is always included (it was
 * proven, possibly around another interleaving).
 */
/** Above this many plugins the full matrix (n(n−1)/2 pairs, two runs each) costs too much on real systems; see {@link swapPlugins}. */
export const SWAP_MATRIX_MAX = 12

/**
 * The plugins whose pairs the matrix tries: all of them up to
 * {@link SWAP_MATRIX_MAX}; beyond that the blamed plugins and `involved` ones
 * (the owners of the contributions that moved), in declaration order.
 */
export function swapPlugins(space: Space, blame: readonly [string, string], involved: readonly string[]): string[] {
  const plugins = space.chains.map(chain => chain.plugin)
  if (plugins.length <= SWAP_MATRIX_MAX) return plugins
  const chosen = new Set([...blame.map(op => pluginOf(op)), ...involved])
  return plugins.filter(plugin => chosen.has(plugin))
}

export async function swapMatrix(space: Space, base: Schedule, blame: readonly [string, string], cache: RunCache, plugins: readonly string[] = space.chains.map(chain => chain.plugin)): Promise<[string, string][]> {
  const blamed = new Set(blame.map(op => pluginOf(op)))
  const changed: [string, string][] = []
  for (const [i, a] of plugins.entries()) {
    for (const b of plugins.slice(i + 1)) {
      if (blamed.has(a) && blamed.has(b) && a !== b) {
        changed.push([a, b])
        continue
      }
      const orders = adjacentOrders(space, base, a, b) ?? adjacentOrders(space, base, b, a)
      if (orders && await cache.hash(orders[0]) !== await cache.hash(orders[1])) changed.push([a, b])
    }
  }
  return changed
}
