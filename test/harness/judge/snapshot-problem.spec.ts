/**
 * When a snapshot finding fails the scenario: a status other than the one
 * it expects does — except, in one shard of a sweep, a snapshot expected to
 * pin one load order that the shard saw one side of only, which is for the
 * merge of the shards to judge.
 */
import { describe, expect, it } from 'vitest'
import { snapshotProblem, type SnapshotFinding } from '../../../harness/judge/snapshot.ts'

function finding(status: SnapshotFinding['status'], expected: SnapshotFinding['expected'], matching: number, mismatching: number): SnapshotFinding {
  return { folder: 'tests/snapshots/pty-tools', status, expected, matching: { interleavings: matching, outputs: matching > 0 ? 1 : 0 }, mismatching: { interleavings: mismatching, outputs: mismatching > 0 ? 1 : 0 } }
}

describe('a snapshot finding against its expectation', () => {
  it('is no problem when the status is the expected one', () => {
    expect(snapshotProblem(finding('holds', 'holds', 6, 0))).toBeUndefined()
    expect(snapshotProblem(finding('pins-one', 'pins-one', 2, 4))).toBeUndefined()
  })

  it('says what was expected and what was found, with the counts', () => {
    expect(snapshotProblem(finding('pins-one', 'holds', 5, 19))).toBe('snapshot tests/snapshots/pty-tools: expected it to hold, but it pins one load order (5 of 24 interleavings give the pinned files; it will flake on a machine whose imports settle the other way)')
    expect(snapshotProblem(finding('holds', 'pins-one', 6, 0))).toBe('snapshot tests/snapshots/pty-tools: expected it to pin one load order, but it holds (every interleaving gives the pinned files)')
  })

  it('in a shard, leaves an expected pins-one seen from one side to the merge, and still fails any other mismatch', () => {
    expect(snapshotProblem(finding('holds', 'pins-one', 3, 0), { shard: true })).toBeUndefined()
    expect(snapshotProblem(finding('matches-none', 'pins-one', 0, 3), { shard: true })).toBeUndefined()
    expect(snapshotProblem(finding('pins-one', 'holds', 1, 2), { shard: true })).toMatch(/expected it to hold, but it pins one load order/)
    expect(snapshotProblem(finding('matches-none', 'holds', 0, 3), { shard: true })).toMatch(/expected it to hold, but it matches none/)
  })
})
