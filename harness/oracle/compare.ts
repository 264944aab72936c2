import { unifiedDiff } from './diff.ts'
import { describeDifference, locateDifference, readable } from './readable.ts'
import type { DivergenceKind, DivergencePart } from '../verdict/divergence.ts'
import { parseProjection, type Projection } from '../projection/projection.ts'
import { describeEnding } from '../verdict/outcome.ts'

/**
 * The parts of a projection, in the order a divergence is attributed: the
 * model-facing bytes first, then misconfiguration errors and entries that
 * never became active, then the rest of the session log (which repeats the
 * others, so it is the least specific).
 */
export const PARTS: readonly DivergencePart[] = ['header', 'request', 'errors', 'inactive', 'events']

export function partOf(projection: Projection, part: DivergencePart): unknown {
  switch (part) {
    case 'header': return projection.header
    case 'request': return projection.requests
    case 'errors': return { outcome: projection.outcome, ...projection.errors, stuck: projection.stuck, ...projection.crash === undefined ? {} : { crash: projection.crash } }
    case 'inactive': return projection.inactive
    case 'events': return { events: projection.events, live: projection.live }
  }
}

/**
 * Recursively sorts every array by its elements' JSON, so that permutations
 * compare equal; a text of several paragraphs (a rendered system prompt:
 * sections and paragraphs separated by blank lines) counts as the list of
 * its paragraphs, so reordered sections are a permutation too.
 */
function sortArrays(value: unknown): unknown {
  if (typeof value === 'string' && value.includes('\n\n')) return sortArrays(value.split(/\n\n+/))
  if (Array.isArray(value)) {
    return value.map(sortArrays).map(item => [JSON.stringify(item), item] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, item]) => item)
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sortArrays(item)]))
  }
  return value
}

/** `order` when the two values hold the same elements permuted, else `content`. */
export function kindOf(a: unknown, b: unknown): DivergenceKind {
  return JSON.stringify(sortArrays(a)) === JSON.stringify(sortArrays(b)) ? 'order' : 'content'
}

export interface Difference {
  part: DivergencePart
  kind: DivergenceKind
}

/**
 * The first part (in `PARTS` order) where two projections differ, or
 * undefined when they are identical. A crash comes first: it cut short
 * everything after it, so two projections whose crashes differ differ in
 * their `errors`, where the crash is recorded.
 */
export function firstDifference(a: Projection, b: Projection): Difference | undefined {
  if (JSON.stringify(a.crash) !== JSON.stringify(b.crash)) return { part: 'errors', kind: kindOf(partOf(a, 'errors'), partOf(b, 'errors')) }
  for (const part of PARTS) {
    const left = partOf(a, part)
    const right = partOf(b, part)
    if (JSON.stringify(left) !== JSON.stringify(right)) return { part, kind: kindOf(left, right) }
  }
  return undefined
}

/** A unified diff of one part of two projections, written out readably (texts line by line), labelled with the replay tokens. */
export function diffPart(a: Projection, b: Projection, part: DivergencePart, labels: [string, string]): string {
  return unifiedDiff(labels[0], labels[1], readable(partOf(a, part)), readable(partOf(b, part)))
}

/** Where the bytes of two runs first differ: the part, its diff under `labels`, and the first difference in words. */
export interface BytesDifference {
  /** null: the same bytes. */
  part: DivergencePart | null
  diff: string
  firstDifference?: string
  /** How each run ended (`describeEnding`), when they ended differently: a run cut short shows here, not only as missing bytes. */
  endings?: [string, string]
}

/** The first part in which the projections `left` and `right` (their JSON) differ, with its diff (none when they are the same bytes). */
export function bytesDifference(left: string, right: string, labels: [string, string]): BytesDifference {
  const a = parseProjection(left)
  const b = parseProjection(right)
  const difference = firstDifference(a, b)
  if (!difference) return { part: null, diff: '' }
  const located = locateDifference(partOf(a, difference.part), partOf(b, difference.part))
  return {
    part: difference.part,
    diff: diffPart(a, b, difference.part, labels),
    firstDifference: located ? describeDifference(difference.part, located) : difference.part,
    ...a.outcome === b.outcome ? {} : { endings: [describeEnding(a), describeEnding(b)] as [string, string] },
  }
}
