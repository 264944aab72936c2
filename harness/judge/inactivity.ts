import type { Exploration } from '../explore/exploration.ts'
import { parseProjection, type InactiveEntry } from '../projection/projection.ts'
import type { InterleavingRecord } from '../runners/runner.ts'
import type { PartlyInactive } from '../verdict/divergence.ts'

/**
 * Which loader entries stayed inactive across an exploration. An entry
 * inactive in every interleaving that booted never became active: that is
 * what `expect.inactive` lists. An entry inactive in some interleavings and
 * active in others is part of what differs between them (the projection's
 * `inactive` part), so it belongs to the divergence, not to the expectation.
 * Stuck and crashed interleavings say nothing about activity and are not
 * counted.
 */

/** One entry's inactivity over the interleavings that booted. */
export interface EntryInactivity {
  /** The entry as the first output that has it inactive records it (with why). */
  entry: InactiveEntry
  /** How many of the counted interleavings had it inactive. */
  inactive: number
  /** The first interleaving (in exploration order) where it was inactive. */
  firstInactive: InterleavingRecord
  /** The first interleaving where it was active, if any. */
  firstActive?: InterleavingRecord
}

/** The entries' inactivity, and how many interleavings were counted (those that booted: not stuck, not crashed). */
export interface Inactivity {
  counted: number
  entries: Map<string, EntryInactivity>
  /** The first counted interleaving, in exploration order. */
  first?: InterleavingRecord
}

/** Whether an output says anything about which entries became active. */
function booted(outcome: string): boolean {
  return outcome !== 'stuck' && outcome !== 'crashed'
}

/** Every entry inactive in at least one counted interleaving of the exploration, with its counts. */
export function inactivityOf(exploration: Pick<Exploration, 'outputs'>): Inactivity {
  const groups = exploration.outputs.filter(group => booted(group.first.outcome))
  const entries = new Map<string, EntryInactivity>()
  const inactiveIn = groups.map(group => new Map((parseProjection(group.json).inactive ?? []).map(entry => [entry.id, entry])))
  for (const [index, group] of groups.entries()) {
    for (const entry of inactiveIn[index]!.values()) {
      const known = entries.get(entry.id)
      if (known === undefined) entries.set(entry.id, { entry, inactive: group.count, firstInactive: group.first })
      else known.inactive += group.count
    }
  }
  for (const [id, known] of entries) {
    const active = groups.find((_, index) => !inactiveIn[index]!.has(id))
    if (active !== undefined) known.firstActive = active.first
  }
  return { counted: groups.reduce((total, group) => total + group.count, 0), entries, first: groups[0]?.first }
}

/** The entries inactive in some counted interleavings only, by label, with their counts: part of a divergence. */
export function partlyInactive(inactivity: Inactivity): PartlyInactive[] {
  return [...inactivity.entries.values()]
    .filter(known => known.inactive < inactivity.counted)
    .map(known => ({ id: known.entry.id, inactive: known.inactive, of: inactivity.counted }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
