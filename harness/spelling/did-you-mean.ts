/**
 * "Did you mean": the known names nearest to a misspelt one. Nearness is the
 * optimal-string-alignment edit distance — insertions, deletions,
 * substitutions and swaps of two neighbouring characters each count 1 — and
 * a name is suggested only within distance 2, and closer than the word is
 * long (so `-x` is not "near" `-u`).
 */

/** The most edits a suggestion may be away. */
export const MAX_DISTANCE = 2

/** The optimal-string-alignment distance between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

/** The known names nearest to `word` (every one at the smallest distance, in the order known); empty when none is near. */
export function nearest(word: string, known: readonly string[]): string[] {
  const limit = Math.min(MAX_DISTANCE, word.length - 1)
  let best = Infinity
  let found: string[] = []
  for (const name of known) {
    if (name === word) continue
    const distance = editDistance(word, name)
    if (distance > limit || distance > best) continue
    if (distance < best) {
      best = distance
      found = []
    }
    if (!found.includes(name)) found.push(name)
  }
  return found
}

/**
 * `; did you mean "expect"?` — a clause to put after a problem — or the empty
 * string when no known name is near. `show` writes a name as the message
 * quotes it (default: a JSON string).
 */
export function didYouMean(word: string, known: readonly string[], show: (name: string) => string = name => JSON.stringify(name)): string {
  const names = nearest(word, known)
  return names.length === 0 ? '' : `; did you mean ${names.map(show).join(' or ')}?`
}
