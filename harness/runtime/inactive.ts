/**
 * Nothing silently inactive: after boot, every loader entry whose plugin is
 * not active is named, with why. A tool plugin whose service provider is
 * missing never applies and its tools are simply absent from the header; the
 * projection records the entry so the sweep can fail on it unless the
 * scenario expects it (`expect.inactive`). The audit mirrors the one dsh's
 * app boot runs after loading its tree, and also reports disabled entries.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Entry, Loader } from '@deepseek-ai/cordis-plugin-loader'
import { entryLabel } from '../scenario/entry-labels.js'
import type { InactiveEntry } from '../projection/projection.ts'

/** cordis's `FiberState` values (a const enum, so there is no runtime object to import). */
const FIBER = { PENDING: 0, LOADING: 1, ACTIVE: 2, FAILED: 3, DISPOSED: 4, UNLOADING: 5 } as const

const STATE_NAMES: Record<number, string> = { 1: 'loading', 4: 'disposed', 5: 'unloading' }

/** Why one entry is not active, or undefined when it is. */
function inactivity(entry: Entry): Omit<InactiveEntry, 'id'> | undefined {
  if (entry.disabled) return { reason: 'disabled' }
  const fiber = entry.fiber
  if (fiber === undefined) return { reason: 'not-imported' }
  switch (fiber.state) {
    case FIBER.ACTIVE: return undefined
    case FIBER.FAILED: return { reason: 'failed' }
    case FIBER.PENDING: {
      const reflect = fiber.ctx.reflect
      const waiting = Object.keys(fiber.inject).filter(name => reflect.get(name) === undefined)
      return { reason: 'waiting', waiting }
    }
    default: return { reason: STATE_NAMES[fiber.state] ?? `state ${fiber.state}` }
  }
}

/** Every loader entry under `root` (nested includes and groups too) that is not active, by label. */
export function inactiveEntries(root: Context): InactiveEntry[] {
  // `root.reflect.get`, not the `root.get` mixin: the same lookup without the Error cordis builds for an accessor read.
  const loader = root.reflect.get('loader') as Loader | undefined
  if (!loader) return []
  const found: InactiveEntry[] = []
  for (const entry of loader.entries()) {
    const why = inactivity(entry)
    if (why) found.push({ id: entryLabel(entry.id), ...why })
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** One line naming an inactive entry and why: `tool-bash (waiting for services: shell)`. */
export function describeInactive(entry: InactiveEntry): string {
  switch (entry.reason) {
    case 'waiting': {
      const names = entry.waiting ?? []
      return `${entry.id} (waiting for ${names.length === 1 ? 'service' : 'services'}: ${names.join(', ') || 'unknown'})`
    }
    case 'failed': return `${entry.id} (its plugin failed to apply: the config was rejected or apply threw; see the load errors)`
    case 'not-imported': return `${entry.id} (its module did not import; see the load errors)`
    case 'disabled': return `${entry.id} (disabled)`
    default: return `${entry.id} (${entry.reason})`
  }
}
