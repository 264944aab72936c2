import type { Chain, Schedule, Space } from './space.ts'

/**
 * Every schedule of `space`, lazily, in lexicographic order of chain choices:
 * at each step the chains are tried in declaration order. Nothing is
 * materialised, so the space may be far larger than memory.
 */
export function* linearExtensions(space: Space): Generator<Schedule> {
  const lengths = space.chains.map((chain) => chain.ops.length)
  const total = lengths.reduce((sum, length) => sum + length, 0)
  const next = lengths.map(() => 0)
  const chosen: number[] = [] // chain index taken at each depth
  const prefix: string[] = []
  let tryFrom = 0
  for (;;) {
    if (chosen.length === total) {
      yield prefix.slice()
    } else {
      let chain = tryFrom
      while (chain < lengths.length && (next[chain] as number) >= (lengths[chain] as number)) chain++
      if (chain < lengths.length) {
        const rank = next[chain] as number
        prefix.push((space.chains[chain] as Chain).ops[rank] as string)
        chosen.push(chain)
        next[chain] = rank + 1
        tryFrom = 0
        continue
      }
    }
    // Backtrack: undo the last choice and try the next chain at that depth.
    const last = chosen.pop()
    if (last === undefined) return
    prefix.pop()
    next[last] = (next[last] as number) - 1
    tryFrom = last + 1
  }
}
