import type { Divergence, DivergencePart } from './divergence.ts'
import type { StuckInfo } from './outcome.ts'

/**
 * What a sweep found for one scenario. `skipped`: the scenario was not run
 * (its target cannot run it, or the machine lacks what its `requires:` asks
 * for); the entry carries the reason and no `passed`.
 */
export type Verdict = 'deterministic' | 'divergent' | 'uncontrolled' | 'host-dependent' | 'stuck' | 'skipped' | 'error'

/** An interleaving whose fresh rerun produced other bytes than exploring it did: nondeterminism the scheduler does not control. */
export interface UncontrolledReplay {
  /** Replay token of the interleaving. */
  token: string
  /** The hash the exploration saw, then the hash of the fresh rerun. */
  hashes: [string, string]
  /** The first part of the projection that differs; null when the explored bytes were not at hand (a merge knows only the shard's hash). */
  part: DivergencePart | null
  /** Unified diff of that part (explored → rerun); empty when `part` is null. */
  diff: string
  /** Where that part first differs, readable (`header.tools[1].name, column 2:` and the lines around it); absent when `part` is null. */
  firstDifference?: string
}

/** The same interleaving, run on two hosts, gave different bytes: a host dependence, not an order bug. */
export interface HostDifference {
  /** The two hosts, the sweep's first host first. */
  hosts: [string, string]
  /** The output's hash on each host. */
  hashes: [string, string]
  /** The interleaving's replay token on each host (`~<host>` names the host). */
  tokens: [string, string]
  /** The first part of the projection that differs. */
  part: DivergencePart
  /** Unified diff of that part (first host → second host). */
  diff: string
}

/** A stuck interleaving: the schedule that replays it, and why it stopped. */
export interface StuckInterleaving {
  schedule: string[]
  stuck: StuckInfo
}

/**
 * What an exploration means, keyed on its verdict: each verdict carries what
 * explains it. A `divergent` analysis without a divergence was cut short (an
 * interrupted sweep is judged without minimisation); `error` means no
 * interleaving ran.
 */
export type Analysis =
  | { verdict: 'deterministic' }
  | { verdict: 'divergent', divergence: Divergence | null }
  | { verdict: 'uncontrolled', uncontrolled: UncontrolledReplay }
  | { verdict: 'host-dependent', hostDifference: HostDifference }
  | { verdict: 'stuck', stuck: StuckInterleaving }
  | { verdict: 'error' }
