import type { Divergence, DivergencePart } from './divergence.ts'
import type { StuckInfo } from './outcome.ts'

/**
 * What a sweep found for one scenario. `skipped`: the scenario was not run
 * (its target cannot run it, or the machine lacks what its `requires:` asks
 * for); the entry carries the reason and no `passed`.
 */
export type Verdict = 'deterministic' | 'divergent' | 'uncontrolled' | 'harness-fault' | 'host-dependent' | 'stuck' | 'skipped' | 'error'

/**
 * The reruns of an interleaving about to be called uncontrolled with
 * loadrace's control of timers and clocks off, the import order still held
 * (`control: 'order-only'`): the evidence that tells loadrace's own doing
 * (`harness-fault`) from the system's (`uncontrolled`).
 */
export interface OrderOnlyReruns {
  /** The hash of each order-only rerun, in order. */
  hashes: string[]
  /** Whether they agree with each other. */
  agree: boolean
  /** Set when one of them ran into the per-interleaving timeout: no evidence either way. */
  timedOut?: true
  /**
   * When they agree: the hash of one more controlled run of the interleaving,
   * right after them. The same hash as theirs means the system's bytes changed
   * from run to run (state carried between runs), whatever the control.
   */
  controlledAfter?: string
}

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
  /** How the explored run and the rerun ended, when they ended differently (`stuck (no-progress in boot; waiting for …)`, `completed`). */
  endings?: [string, string]
  /** The interleaving rerun with loadrace's control of timers and clocks off: its runs varied too (or timed out), so the variation is the system's. */
  orderOnly?: OrderOnlyReruns
}

/**
 * An interleaving whose controlled runs disagree while its runs with
 * loadrace's control of timers and clocks off (the import order still held)
 * agree with each other: the difference is loadrace's own doing, never a
 * verdict about the system. Reported as loadrace's failure (exit 3).
 */
export interface HarnessFault {
  /** Replay token of the interleaving. */
  token: string
  /** What loadrace held in the controlled runs and may have failed to hold, from what they recorded: `a clock (Date.now)`, `a timer (setTimeout 60000 ms, tool-slow#timer1)`, …; says so when it cannot be determined. */
  resource: string
  /** The hashes of the controlled runs that disagree: explored (or the first host's), then the rerun. */
  controlled: [string, string]
  /** The order-only reruns, which agree, and the controlled run after them, which does not give their bytes. */
  orderOnly: OrderOnlyReruns
  /** The first part in which the controlled run after the order-only runs differs from them. */
  part: DivergencePart | null
  /** Unified diff of that part (controlled → order-only); empty when `part` is null. */
  diff: string
  /** Where that part first differs, readable; absent when `part` is null. */
  firstDifference?: string
  /** How the controlled run and the order-only runs ended, when they ended differently. */
  endings?: [string, string]
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
  | { verdict: 'harness-fault', harnessFault: HarnessFault }
  | { verdict: 'host-dependent', hostDifference: HostDifference }
  | { verdict: 'stuck', stuck: StuckInterleaving }
  | { verdict: 'error' }
