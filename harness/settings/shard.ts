/** One slice of an interleaving space: shard `index` of `count` (1-based). */
export interface Shard {
  index: number
  count: number
}

/** Parses `i/n` (1 ≤ i ≤ n); throws a one-line message naming the option otherwise. */
export function parseShard(text: string): Shard {
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(text)
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  if (!match || index > count) {
    throw new RangeError(`--shard: expected i/n with 1 ≤ i ≤ n (for example 2/4), got "${text}"`)
  }
  return { index, count }
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`
}
