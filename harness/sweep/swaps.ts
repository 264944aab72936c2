import type { Schedule } from '../space/space.ts'
import { pluginOf } from '../space/space.ts'
import type { RunCache } from './hash-cache.ts'

/**
 * The two schedules that order plugins `a` and `b` both ways while every
 * other operation keeps its place in `base`: the positions held by a's and
 * b's operations are refilled with all of a's operations then all of b's, and
 * the other way round. For single-batch plugins that is exactly exchanging them.
 */
export function pairOrders(base: Schedule, a: string, b: string): [Schedule, Schedule] {
  const positions: number[] = []
  const ops = { a: [] as string[], b: [] as string[] }
  base.forEach((op, position) => {
    const plugin = pluginOf(op)
    if (plugin === a) ops.a.push(op)
    else if (plugin === b) ops.b.push(op)
    else return
    positions.push(position)
  })
  const fill = (first: string[], second: string[]) => {
    const result = [...base]
    const order = [...first, ...second]
    positions.forEach((position, i) => { result[position] = order[i]! })
    return result
  }
  return [fill(ops.a, ops.b), fill(ops.b, ops.a)]
}

/**
 * Which plugin pairs change the bytes when ordered both ways around `base`:
 * the data of the report's plugin × plugin matrix.
 */
export async function swapMatrix(base: Schedule, plugins: readonly string[], cache: RunCache): Promise<[string, string][]> {
  const changed: [string, string][] = []
  for (const [i, a] of plugins.entries()) {
    for (const b of plugins.slice(i + 1)) {
      const [ab, ba] = pairOrders(base, a, b)
      if (await cache.hash(ab) !== await cache.hash(ba)) changed.push([a, b])
    }
  }
  return changed
}
