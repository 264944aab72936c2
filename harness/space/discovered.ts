import { pluginOf, type Chain, type Schedule, type Space } from './space.ts'

/**
 * The space as running the system showed it. The scenario file names each
 * plugin's import and registration batches; running one interleaving shows
 * the rest of each chain — the timers its code sets up while booting — in
 * the order they happened. Each chain keeps the declared operations the run
 * never reached at its end (a plugin that hangs before its second batch still
 * owns that batch), and chains the file does not declare (`_root`, entries a
 * `cordis.yml` adds) follow in order of first appearance.
 */
export function discoveredSpace(declared: Space, run: Schedule): Space {
  const seen = new Map<string, string[]>()
  for (const op of run) {
    const plugin = pluginOf(op)
    let ops = seen.get(plugin)
    if (!ops) seen.set(plugin, ops = [])
    ops.push(op)
  }
  const chains: Chain[] = declared.chains.map((chain) => {
    const ran = seen.get(chain.plugin) ?? []
    seen.delete(chain.plugin)
    return { plugin: chain.plugin, ops: [...ran, ...chain.ops.filter(op => !ran.includes(op))] }
  })
  for (const [plugin, ops] of seen) chains.push({ plugin, ops })
  return { chains }
}

/** Whether two spaces have the same chains with the same operations in the same order. */
export function sameSpace(a: Space, b: Space): boolean {
  return a.chains.length === b.chains.length && a.chains.every((chain, i) => {
    const other = b.chains[i]!
    return chain.plugin === other.plugin && chain.ops.length === other.ops.length && chain.ops.every((op, j) => op === other.ops[j])
  })
}

/**
 * Why an effective schedule falls outside the space, or `undefined` when it
 * does not: an operation the space does not know, or two operations of one
 * chain released against the chain's order. (Operations a run never reached
 * are fine: the run is still one of the space's orders with those left out.)
 */
export function deviation(space: Space, schedule: Schedule): string | undefined {
  const position = new Map<string, { chain: number, rank: number }>()
  space.chains.forEach((chain, index) => chain.ops.forEach((op, rank) => position.set(op, { chain: index, rank })))
  const reached = space.chains.map(() => -1)
  for (const op of schedule) {
    const at = position.get(op)
    if (at === undefined) return `operation ${op} is not in the discovered space`
    if (at.rank < (reached[at.chain] as number)) return `operation ${op} ran after a later operation of its chain`
    reached[at.chain] = at.rank
  }
  return undefined
}
