/**
 * The machine contract of a determinism report (`report.json`). Every other
 * report format is rendered from this one object.
 */

export type Verdict = 'deterministic' | 'divergent' | 'uncontrolled' | 'stuck' | 'error'

/** Which part of the projection differs between two interleavings. */
export type DivergencePart = 'header' | 'request' | 'events' | 'errors' | 'inactive'

/** `order`: the same elements, permuted; `content`: anything else. */
export type DivergenceKind = 'order' | 'content'

export type GoldenStatus = 'match' | 'mismatch' | 'written' | 'missing' | 'none'

/** One distinct output (projection) and the interleavings that produced it. */
export interface ReportOutput {
  /** sha256 (hex) of the projection's JSON: the name of the output. */
  hash: string
  /** How many explored interleavings produced it. */
  count: number
  /** Exploration position (0-based, in the unsharded plan) of the first interleaving that produced it. */
  first: number
  /** Replay token of the first interleaving that produced it. */
  token: string
  /** The header's tool names for this output (empty when the turn failed). */
  tools: string[]
}

/** A minimal counterexample: two interleavings one adjacent swap apart whose bytes differ. */
export interface Divergence {
  part: DivergencePart
  kind: DivergenceKind
  /** The two plugin ids whose swap changes the bytes. */
  blame: [string, string]
  /** Replay tokens of the two interleavings, before and after the swap. */
  tokens: [string, string]
  /** Unified diff of the differing part (before → after), texts written out line by line. */
  diff: string
  /** Where the two sides first differ (`header.system, line 14, column 1:`) with a few lines of context from each. */
  firstDifference: string
  /**
   * Tools (by provenance) and prompt sections (by the plugin that registered
   * them) whose relative order differs between the two sides; `owner` is the
   * loader entry, `(base)` for the base composition.
   */
  moved: { kind: 'tool' | 'section', name: string, owner: string }[]
  /** Unified diff of the system prompt's sections (`[order] name (plugin)`), when they differ. */
  sections?: string
  /**
   * Which plugin pairs change the bytes when their positions in the baseline
   * interleaving are exchanged. With more than 12 plugins only the pairs
   * among the blamed plugins and the owners of moved contributions are tried
   * (`plugins` lists those).
   */
  swaps: {
    plugins: string[]
    /** Each sensitive pair once, in `plugins` order. */
    changed: [string, string][]
  }
}

export interface ScenarioReport {
  name: string
  /** The scenario file as given on the command line. */
  file: string
  variant: string
  target: string
  /** Number of plugin entries in the scenario. */
  plugins: number
  /** Size of the interleaving space, as an exact decimal string (it can exceed 2^53). */
  space: string
  /** Interleavings run (in this shard). */
  explored: number
  strategy: string
  /** `exhaustive`, `t-way:N` or `sampled`. */
  guarantee: string
  verdict: Verdict
  /** Whether the scenario met its expectation (and its golden). */
  passed: boolean
  /** Outcome of the interleavings when they agree: completed | turn-error | load-error | stuck; `mixed` when they do not. */
  outcome: string
  distinctOutputs: number
  outputs: ReportOutput[]
  divergence: Divergence | null
  golden: GoldenStatus
  /** What the scenario file expected. */
  expected: { outcome: string, deterministic: boolean }
  /** Why the scenario failed, one line per reason (empty when it passed). */
  problems: string[]
  /** Unified diff against the golden, when it mismatched. */
  goldenDiff?: string
  /** Set when the scenario was not run for this target, with the reason. */
  skipped?: string
  /** Set with verdict `error` when exploring or judging this scenario failed inside loadrace: the error's message. */
  error?: string
  durationMs: number
}

export interface Report {
  tool: 'loadrace'
  version: string
  /** False when the sweep was interrupted: the report holds what was explored so far. */
  complete: boolean
  options: {
    strategy: string
    seed: string
    budget: number
    /** PCT depth (`--depth`), null when the strategy default applied. */
    depth: number | null
    /** Covering strength (`--strength`), null when the strategy default applied. */
    strength: number | null
    /** `i/n`, or null when not sharded. */
    shard: string | null
    workers: number
  }
  scenarios: ScenarioReport[]
  /** Goldens that belong to no swept scenario (checked in CI on complete, unsharded sweeps); their presence fails the sweep. */
  obsoleteGoldens?: string[]
  summary: {
    /** Every scenario of the sweep, skipped ones included. */
    scenarios: number
    /** Scenarios that ran and met their expectation. */
    passed: number
    failed: number
    interleavings: number
    durationMs: number
  }
}
