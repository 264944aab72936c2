/**
 * The RFC's rules as the matrix states them to predict verdicts: written from
 * the RFC and REFERENCE-SPEC, never taken from the reference under test, so
 * that a reference that breaks a rule cannot also bend the prediction.
 */

/** "plain lexicographic name order (code-unit comparison, locale-independent)". */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The rejected comparator of the `locale-compare` variant: the host's default collation. */
export function compareByLocale(a: string, b: string): number {
  return a.localeCompare(b)
}

/** The rest entry of an explicit `toolOrder`: where the unlisted tools go, in canonical order. */
export const TOOL_ORDER_REST = '<unlisted-tools>'

/** The start of every message of the loop's reconstruction invariant (REFERENCE-SPEC: the invariant names the package that built the request). */
export const INVARIANT_FAILURE = 'invariant violated by "agent-loop"'
