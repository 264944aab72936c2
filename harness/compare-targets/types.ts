import type { Outcome } from '../oracle/projection.ts'
import type { Verdict } from '../report/types.ts'
import type { TargetName } from '../targets/types.ts'

/** What the targets must agree on, of one distinct output. */
export interface OutputObservation {
  /** Replay token of the output's first interleaving. */
  token: string
  outcome: Outcome
  /** The header's tool names, in order (empty when no header was logged). */
  tools: string[]
  /** Misconfiguration messages: errors logged while loading, and agent/error messages. */
  errors: { load: string[], turn: string[] }
}

/** The aspects compared: header tool order, outcome kind, misconfiguration messages. */
export const ASPECTS = ['tools', 'outcome', 'errors'] as const

export type Aspect = typeof ASPECTS[number]

/** A value of an aspect one side showed, with the token of the first output that showed it. */
export interface SeenValue {
  value: unknown
  token: string
}

/** One aspect on which the two sides disagree: the values each side showed and the other did not. */
export interface AspectDifference {
  aspect: Aspect
  left: SeenValue[]
  right: SeenValue[]
}

/** One scenario swept against both targets. */
export interface ScenarioComparison {
  scenario: string
  file: string
  /** Each target's verdict (for orientation; verdicts are not compared, the aspects are). */
  verdicts: [Verdict, Verdict]
  explored: [number, number]
  /** Empty when the targets agree. */
  differences: AspectDifference[]
}

/** A scenario one target cannot run, and why. */
export interface SkippedPair {
  scenario: string
  file: string
  target: TargetName
  reason: string
}

/** `diff-targets.json`: the reference against the published dsh packages. */
export interface TargetDiffReport {
  tool: 'loadrace'
  report: 'diff-targets'
  version: string
  /** False when interrupted. */
  complete: boolean
  options: { strategy: string, seed: string, budget: number }
  /** The sides: `left` values come from the first, `right` from the second. */
  targets: [TargetName, TargetName]
  compared: ScenarioComparison[]
  skipped: SkippedPair[]
  summary: {
    scenarios: number
    compared: number
    differing: number
    skipped: number
    durationMs: number
  }
}
