import type { Verdict } from '../verdict/verdict.ts'
import type { TargetName } from '../targets/target.ts'
import type { Envelope } from '../report/envelope.ts'

/** `value`: the two sides hold different values; `key-order`: a mapping with its keys in another order; `missing`: only one side has it. */
export type DifferenceKind = 'value' | 'key-order' | 'missing'

/** One place where the two targets' compared projections of the same interleaving differ. */
export interface ProjectionDifference {
  /**
   * Where, in the compared projection (see `ComparedView`): `header.tools[1].description`,
   * `requests[0].messages[1]`, `eventTypes[7]`, `live[2].status`, `errors.turn[0]`, `stuck.waiting[0]`;
   * `outputs` for the way the sweeps' interleavings fall into distinct outputs.
   */
  path: string
  kind: DifferenceKind
  /** The first target's value there (its key list for `key-order`; absent when only the other side has it). */
  left: unknown
  /** The second target's value there. */
  right: unknown
  /** Replay token of the interleaving both sides ran (the first target's; the other side replays it with `+<target>`). */
  token: string
}

/** One scenario swept against both targets. */
export interface ScenarioComparison {
  scenario: string
  file: string
  /** Each target's verdict (for orientation; the projections are compared, not the verdicts). */
  verdicts: [Verdict, Verdict]
  explored: [number, number]
  /** How many interleavings were run on both targets and compared: the first of every distinct output of either sweep. */
  compared: number
  /** Every distinct difference (the first interleaving showing it names it); empty when the targets agree. */
  differences: ProjectionDifference[]
  /** Differences beyond the first `MAX_DIFFERENCES`, counted but not listed. */
  omitted: number
}

/** A scenario one target cannot run, and why. */
export interface SkippedPair {
  scenario: string
  file: string
  target: TargetName
  reason: string
}

/** `diff-targets.json`: the reference against the published dsh packages. */
export interface TargetDiffReport extends Envelope<{ strategy: string, seed: string, budget: number }, TargetDiffSummary> {
  report: 'diff-targets'
  /** The sides: `left` values come from the first, `right` from the second. */
  targets: [TargetName, TargetName]
  compared: ScenarioComparison[]
  skipped: SkippedPair[]
}

export interface TargetDiffSummary {
  scenarios: number
  compared: number
  differing: number
  skipped: number
}
