import type { DivergenceKind, DivergencePart } from '../verdict/divergence.ts'
import type { GoldenStatus } from '../goldens/golden.ts'
import type { Verdict } from '../verdict/verdict.ts'
import type { VariantName } from '../targets/catalogue.ts'
import type { CellExpectation } from './expectations.ts'
import type { RequestAgreement } from './requests.ts'
import type { Envelope } from '../report/envelope.ts'

/** One variant swept over one scenario, beside what the rules expect of it. */
export interface MatrixCell {
  scenario: string
  /** The scenario file as given. */
  file: string
  variant: VariantName
  verdict: Verdict
  /** The outcome all interleavings agree on, or `mixed`. */
  outcome: string
  explored: number
  distinctOutputs: number
  expected: CellExpectation
  /** Whether the cell meets every part of its expectation; false for a cell with a harness fault, which is not judged. */
  match: boolean
  /** Set with verdict `harness-fault`: loadrace failed to hold what it controls, so the cell is not judged (its problem line says what; the matrix exits 3). */
  harnessFault?: true
  /** Why it does not, one line each (empty when it matches). */
  problems: string[]
  /** Where the minimal divergence first differs; null unless divergent. */
  part: DivergencePart | null
  kind: DivergenceKind | null
  /** The two plugins whose swap changes the bytes; null unless divergent. */
  blame: [string, string] | null
  /** The projection against the committed golden (`none`: not compared). */
  golden: GoldenStatus
  /** How the distinct outputs' dispatched requests compare; only when the expectation asks. */
  requests?: RequestAgreement
  /** A replay token: the divergence's first side, else the first output's; null when nothing ran. */
  token: string | null
}

/** `matrix.json`: every variant over every scenario (`complete` false when interrupted: the cells hold what was swept so far). */
export interface MatrixReport extends Envelope<MatrixReportOptions, MatrixSummary> {
  report: 'matrix'
  /** Scenario names, in sweep order (the table's rows). */
  scenarios: string[]
  /** Variant-major: every scenario under the first variant, then the next. */
  cells: MatrixCell[]
}

export interface MatrixReportOptions {
  strategy: string
  seed: string
  budget: number
  variants: VariantName[]
  goldens: string | null
}

export interface MatrixSummary {
  cells: number
  matched: number
  /** Cells that do not meet their expectation (a cell with a harness fault is not judged, and not counted here). */
  mismatched: number
  /** Cells with a harness fault (verdict `harness-fault`): loadrace's failure, not the system's. */
  harnessFaults: number
  interleavings: number
}
