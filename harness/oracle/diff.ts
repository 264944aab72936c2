import { createTwoFilesPatch } from 'diff'

/** A unified diff of two texts labelled `before` and `after` (3 lines of context, no `Index`/`===` banner). */
export function unifiedDiff(before: string, after: string, a: string, b: string): string {
  return createTwoFilesPatch(before, after, a, b, undefined, undefined, { context: 3 }).replace(/^=+\n/, '')
}
