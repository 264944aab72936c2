/**
 * A problem found while checking a scenario file, before it becomes a
 * `ScenarioError`. Problems carry where they sit in the document so the
 * first one in document order can be reported.
 */

/** A path into the parsed file: mapping keys and list indexes. */
export type FieldPath = readonly (string | number)[]

/**
 * Which source offset orders a problem: the key of the last path segment,
 * its value, or the end of the node (used for what is missing from a mapping).
 */
export type Anchor = 'key' | 'value' | 'end'

/** One problem, located in the document. */
export interface Problem {
  /** The path reported in the error line. */
  path: FieldPath
  problem: string
  allowed: string
  /** Which position of the `at` node orders this problem. */
  anchor: Anchor
  /** The node whose position orders this problem; defaults to `path`. */
  at?: FieldPath
}
