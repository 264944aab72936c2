/**
 * What moved between the two sides of a divergence, named by who contributed
 * it: the swapped pair is the proven cause, often a provider one step removed;
 * the tools and prompt sections whose relative order changed name the plugins
 * that own the bytes that moved.
 */
import type { Contribution, Contributions } from '../runtime/contributions.ts'
import { unifiedDiff } from './diff.ts'

/** A contribution whose relative order to another one differs between the two sides. */
export interface MovedContribution {
  kind: Contribution['kind']
  name: string
  owner: string
  /** The plugin, mounted by the owner's plugin, that registered it (see `Contribution.plugin`). */
  plugin?: string
}

/** Who contributed it, as reports write it: the loader entry, and the plugin under it when that is another one (`base.acp-agent › tool-jobs`). */
export function contributor(item: { owner: string, plugin?: string }): string {
  return item.plugin === undefined ? item.owner : `${item.owner} › ${item.plugin}`
}

function key(item: Contribution): string {
  return `${item.kind}\0${item.name}`
}

/** The contributions of one kind present on both sides whose relative order to some other one is inverted. */
function inverted(before: readonly Contribution[], after: readonly Contribution[]): Contribution[] {
  const rank = new Map(after.map((item, index) => [key(item), index]))
  const shared = before.filter(item => rank.has(key(item)))
  const moved = new Set<string>()
  for (let i = 0; i < shared.length; i++) {
    for (let j = i + 1; j < shared.length; j++) {
      if (rank.get(key(shared[i]!))! > rank.get(key(shared[j]!))!) {
        moved.add(key(shared[i]!))
        moved.add(key(shared[j]!))
      }
    }
  }
  return shared.filter(item => moved.has(key(item)))
}

/** Tools and prompt sections whose relative order differs between `before` and `after`, in `before`'s order. */
export function movedContributions(before: Contributions | undefined, after: Contributions | undefined): MovedContribution[] {
  if (!before || !after) return []
  return [...inverted(before.sections, after.sections), ...inverted(before.tools, after.tools)]
    .map(({ kind, name, owner, plugin }) => ({ kind, name, owner, ...plugin === undefined ? {} : { plugin } }))
}

/** The plugins owning the moved contributions, each once, in order. */
export function movedOwners(moved: readonly MovedContribution[]): string[] {
  return [...new Set(moved.map(item => item.owner))]
}

function sectionLine(section: Contribution): string {
  return `${section.order === undefined ? '' : `[${section.order}] `}${section.name} (${contributor(section)})`
}

/**
 * A unified diff of the system prompt's sections, one line each
 * (`[order] name (registering plugin)`), in assembly order; undefined when
 * the two sides hold the same sections in the same order.
 */
export function sectionDiff(before: Contributions | undefined, after: Contributions | undefined, labels: [string, string]): string | undefined {
  if (!before || !after) return undefined
  const render = (contributions: Contributions) => contributions.sections.map(sectionLine).join('\n') + '\n'
  const a = render(before)
  const b = render(after)
  if (a === b) return undefined
  return unifiedDiff(labels[0], labels[1], a, b)
}
