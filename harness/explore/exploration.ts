import type { Space } from '../space/space.ts'
import type { Guarantee } from '../strategies/index.ts'
import type { InterleavingRecord } from '../runners/runner.ts'

/**
 * What exploring a scenario gives: the discovered space, the runs grouped by
 * output, what they realised of the space, and the guarantee that still
 * holds for what really ran.
 */

/** How one exploration runs, besides the settings it plans with (see `PlanSettings`). */
export interface ExploreRun {
  signal?: AbortSignal
  /** Called after each interleaving with the number run so far and the number planned. */
  onProgress?: (explored: number, planned: number) => void
  /** Plan over this space instead of discovering one (another host explores the space its first host discovered). */
  space?: Space
  /** Keep each planned position's hash and replayable schedule, to compare hosts position by position. */
  byPosition?: boolean
}

/** What one planned position gave: its output's hash, and the schedule that replays it. */
export interface PositionResult {
  hash: string
  schedule: string[]
}

/** One distinct output of an exploration. */
export interface OutputGroup {
  hash: string
  count: number
  /** The earliest interleaving (in exploration order) that produced it. */
  first: InterleavingRecord
  /** Its projection's bytes. */
  json: string
}

/** A run whose effective order fell outside the discovered space, which therefore under-describes the system. */
export interface Deviation {
  /** How many runs deviated. */
  count: number
  /** The first one: its effective schedule and why it deviates. */
  schedule: string[]
  reason: string
}

export interface Exploration {
  /** The discovered space. */
  space: Space
  size: bigint
  /** How many of the planned interleavings ran (in this shard); fewer than planned when interrupted. */
  ran: number
  /** How many distinct effective release orders those runs realised. */
  explored: number
  /** The distinct effective orders, for merging shards (only kept for a sharded exploration). */
  orders?: string[]
  /** Distinct outputs, ordered by their first appearance (`first.index` is the exploration position). */
  outputs: OutputGroup[]
  /** 1-based position of the first interleaving whose bytes differ from the first one's; null when none did. */
  firstDivergenceAt: number | null
  guarantee: Guarantee
  /** For a t-way plan: how many of the chain-consistent t-orders the effective orders realised. */
  coverage?: { strength: number, realised: number, total: number }
  deviations: Deviation | null
  /** False when the exploration was interrupted before the plan ended. */
  finished: boolean
  /** With `byPosition`: each planned position's result, by position in the unsharded plan. */
  byPosition?: Map<number, PositionResult>
  /** The runtime the runs ran on (from the discovery run): Node version and the shims the target needed. */
  runtime?: InterleavingRecord['runtime']
}

