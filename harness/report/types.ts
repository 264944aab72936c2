/**
 * The machine contract of a determinism report (`report.json`). Every other
 * report format is rendered from this one object.
 */

/**
 * What a sweep found for one scenario. `skipped`: the scenario was not run
 * (its target cannot run it); the entry carries the reason and no `passed`.
 */
export type Verdict = 'deterministic' | 'divergent' | 'uncontrolled' | 'host-dependent' | 'stuck' | 'skipped' | 'error'

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

export interface ScenarioReport {
  name: string
  /** The scenario file as given on the command line. */
  file: string
  variant: string
  target: string
  /** Number of plugin entries in the scenario. */
  plugins: number
  /** Size of the (discovered) interleaving space, as an exact decimal string (it can exceed 2^53). */
  space: string
  /** Operations found by running the scenario beyond those its file declares (timers its plugins set up while booting), in chain order. */
  discovered: string[]
  /** Planned interleavings that ran (in this shard). */
  planned: number
  /** Distinct effective release orders those runs realised: what the guarantee speaks of. */
  explored: number
  /** For a t-way plan: how many of the t-orders the system allows the effective orders realised. */
  coverage?: { strength: number, realised: number, total: number }
  /** Runs whose effective order fell outside the discovered space (the guarantee is then `sampled`). */
  deviations?: { count: number, token: string, reason: string }
  /** Sharded sweeps only: the distinct effective orders (`<op>,…/<enabledAt>,…`), so a merge can count and check them. */
  orders?: string[]
  strategy: string
  /** `exhaustive`, `t-way:N` or `sampled`. */
  guarantee: string
  verdict: Verdict
  /** Whether the scenario met its expectation (and its golden); absent when it was skipped. */
  passed?: boolean
  /** Outcome of the interleavings when they agree: completed | turn-error | load-error | stuck; `mixed` when they do not. */
  outcome: string
  distinctOutputs: number
  outputs: ReportOutput[]
  divergence: Divergence | null
  /** Set when the verdict is `uncontrolled`: the interleaving that replayed to other bytes. */
  uncontrolled?: UncontrolledReplay
  /** The hosts every interleaving ran on, the first host first (`current`: the Node running loadrace, as it is). */
  hosts: string[]
  /** The Node the first host ran on, and the APIs the target had to supply to it (e.g. Promise.withResolvers on Node 20). */
  runtime?: { node: string, shims: string[] }
  /** Set when the verdict is `host-dependent`: the interleaving whose bytes differ between two hosts. */
  hostDifference?: HostDifference
  golden: GoldenStatus
  /** What the scenario file expected. */
  expected: { outcome: string, deterministic: boolean }
  /** Why the scenario failed, one line per reason (empty when it passed). */
  problems: string[]
  /** The golden's path (as the sweep's working directory sees it), when one was compared or written. */
  goldenFile?: string
  /** Unified diff against the golden, when it mismatched. */
  goldenDiff?: string
  /** Why the scenario was not run (its target cannot run it); set exactly when the verdict is `skipped`. */
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
    /** The hosts given with `--hosts` (or `--host`); null when each scenario ran on its default host. */
    hosts: string[] | null
  }
  scenarios: ScenarioReport[]
  /** Goldens that belong to no swept scenario (checked in CI on complete, unsharded sweeps); their presence fails the sweep. */
  obsoleteGoldens?: string[]
  summary: {
    /** Every scenario of the sweep, skipped ones included. */
    scenarios: number
    /** Scenarios that ran and met their expectation. */
    passed: number
    /** Scenarios that ran and did not. */
    failed: number
    /** Scenarios that did not run (verdict `skipped`); counted in neither `passed` nor `failed`. */
    skipped: number
    interleavings: number
    durationMs: number
  }
}
