import type { ApplyStructure } from '../space/applies.ts'

/**
 * Which plugin a test's failure text points at, among plugins the load order
 * cannot move apart. A reordering shows in a diff as lines taken out in one
 * place and put back in another: the lines between (and the moved ones) are
 * what swapped, so only that stretch is read when the text has a diff. A
 * plugin is scored by the words of its own name found there, each counted
 * as often as it is said and weighted by how few plugins of the
 * configuration carry it: `agent` in `acp-agent › agent-spine-demo ›
 * tool-jobs` says little, `jobs` says a lot, and a section that moved says
 * its own plugin's words more than once.
 */

/** The stretch of `text` from its first changed diff line to its last; all of it when it has none. */
export function swappedStretch(text: string): string {
  const lines = text.split('\n')
  // vitest's legend (`- Expected`, `+ Received`) comes before the diff.
  const legend = lines.findIndex((line, at) => line.trim() === '+ Received' && lines[at - 1]?.trim() === '- Expected')
  const changed = lines.flatMap((line, at) => at > legend && /^[-+]( |$)/.test(line) ? [at] : [])
  if (changed.length === 0) return text
  return lines.slice(changed[0], changed.at(-1)! + 1).join('\n')
}

/** The words of a unit's own name (its last mount segment), lower-cased, longer than three letters. */
function wordsOf(unit: string): string[] {
  const own = unit.split(' › ').at(-1) ?? unit
  return [...new Set(own.toLowerCase().split(/[^a-z0-9]+/).filter(word => word.length > 3))]
}

/** Scores units by how much of their name `text`'s swapped stretch says, weighted by rarity among `structure`'s units. */
export function failureScorer(structure: ApplyStructure, text: string): (unit: string) => number {
  const carriers = new Map<string, number>()
  for (const unit of structure.units) for (const word of wordsOf(unit.unit)) carriers.set(word, (carriers.get(word) ?? 0) + 1)
  const counts = new Map<string, number>()
  for (const word of swappedStretch(text).toLowerCase().split(/[^a-z0-9]+/)) counts.set(word, (counts.get(word) ?? 0) + 1)
  // How often the stretch says a word, in the singular or the plural.
  const times = (word: string) => (counts.get(word) ?? 0) + (word.endsWith('s') ? counts.get(word.slice(0, -1)) ?? 0 : counts.get(`${word}s`) ?? 0)
  return unit => wordsOf(unit).reduce((sum, word) => sum + times(word) / (carriers.get(word) ?? 1), 0)
}
