import { createTwoFilesPatch } from 'diff'

/**
 * A unified diff from `beforeText` to `afterText`, their sides labelled
 * `beforeLabel` and `afterLabel` (3 lines of context, no `Index`/`===` banner).
 */
export function unifiedDiff(beforeLabel: string, afterLabel: string, beforeText: string, afterText: string): string {
  return createTwoFilesPatch(beforeLabel, afterLabel, beforeText, afterText, undefined, undefined, { context: 3 }).replace(/^=+\n/, '')
}
