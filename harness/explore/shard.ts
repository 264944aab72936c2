import type { Shard } from '../settings/shard.ts'

/**
 * The part of an exploration a shard runs: positions congruent to its index.
 * Every shard enumerates the same deterministic plan, so the shards are
 * disjoint and together are exactly the unsharded exploration.
 */
export function inShard(position: number, shard: Shard | undefined): boolean {
  return !shard || position % shard.count === shard.index - 1
}
