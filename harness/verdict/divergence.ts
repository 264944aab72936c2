/** Which part of the projection differs between two interleavings. */
export type DivergencePart = 'header' | 'request' | 'events' | 'errors' | 'inactive'

/** `order`: the same elements, permuted; `content`: anything else. */
export type DivergenceKind = 'order' | 'content'

/** A loader entry that stayed inactive in some interleavings and became active in the others. */
export interface PartlyInactive {
  /** The entry's label. */
  id: string
  /** In how many of the interleavings that booted it stayed inactive. */
  inactive: number
  /** How many interleavings booted (stuck and crashed ones are not counted). */
  of: number
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
  moved: { kind: 'tool' | 'section', name: string, owner: string, plugin?: string }[]
  /** Unified diff of the system prompt's sections (`[order] name (plugin)`), when they differ. */
  sections?: string
  /**
   * Entries inactive in some of the explored interleavings only — which entry
   * fails may depend on the order (two plugins registering one tool name) —,
   * with their counts; absent when there are none.
   */
  partlyInactive?: PartlyInactive[]
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

