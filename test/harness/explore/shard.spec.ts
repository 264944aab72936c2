import { describe, expect, it } from 'vitest'
import { inShard } from '../../../harness/explore/shard.ts'
import { formatShard, parseShard } from '../../../harness/settings/shard.ts'

describe('a shard on the command line', () => {
  it('reads i/n with 1 ≤ i ≤ n, and writes it back', () => {
    for (const text of ['1/1', '2/4', '4/4', '10/12']) expect(formatShard(parseShard(text))).toBe(text)
    expect(parseShard('3/7')).toEqual({ index: 3, count: 7 })
  })

  it.each(['0/2', '3/2', '1/0', '01/2', '1/', '/2', '1-2', 'a/b', ' 1/2', '1/2 ', '1.5/2', '-1/2', ''])('rejects %j in one line naming --shard and what is allowed', (text) => {
    expect(() => parseShard(text)).toThrow(new RangeError(`--shard: expected i/n with 1 ≤ i ≤ n (for example 2/4), got "${text}"`))
  })
})

describe('the positions of a shard', () => {
  it('are every position when there is no shard', () => {
    for (let position = 0; position < 20; position++) expect(inShard(position, undefined)).toBe(true)
  })

  it('are disjoint between the shards of one count, and together every position', () => {
    for (let count = 1; count <= 6; count++) {
      const owners = Array.from({ length: 50 }, (_, position) =>
        Array.from({ length: count }, (_, at) => at + 1).filter(index => inShard(position, { index, count })))
      expect(owners.every(owner => owner.length === 1)).toBe(true)
    }
  })

  it('deal the plan out in turn, so every shard gets its part from the start of the plan', () => {
    const taken = (index: number) => Array.from({ length: 10 }, (_, position) => position).filter(position => inShard(position, { index, count: 3 }))
    expect([taken(1), taken(2), taken(3)]).toEqual([[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]])
  })
})
