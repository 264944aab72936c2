/**
 * Human wording attached to schemastery schema nodes, so a validation failure
 * can say what was expected and what is allowed instead of a type dump.
 */

/** How to describe one schema node in an error line. */
export interface Hint {
  /** Noun phrase of a valid value: "a non-empty list of tools". */
  expected: string
  /** What is allowed there, shown in parentheses. */
  allowed: string
  /** For a fixed set of names: a string outside it reads `unknown <noun> "x"`. */
  noun?: string
  /** That set of names, for "did you mean". */
  names?: readonly string[]
}

const hints = new WeakMap<object, Hint>()

/** Attaches a hint to a finished schema node (schemastery's builder methods return copies: hint last). */
export function hinted<S extends object>(schema: S, hint: Hint): S {
  hints.set(schema, hint)
  return schema
}

/** The hint attached to a schema node, if any. */
export function hintOf(schema: object): Hint | undefined {
  return hints.get(schema)
}
