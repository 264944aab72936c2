/**
 * The schedule space of a scenario: which orders of plugin import completions,
 * gaps between a plugin's registration batches, and timers the plugins set up
 * are possible.
 *
 * Each plugin contributes one chain of operations: its import completion,
 * labelled with the plugin id, one scheduling point per extra batch, labelled
 * `<id>#2`, `<id>#3`, …, and one per timer its code sets up while booting,
 * `<id>#timer1`, `<id>#timer2`, … (timers of the base composition belong to
 * the chain `_root`). A schedule is a linear extension of the chains: every
 * operation exactly once, each chain in its own order, chains interleaved
 * freely. The import and batch operations are known from the scenario file;
 * timers are found by running it (see `discoveredSpace`).
 */

import type { ApplyStructure } from './applies.ts'

/** One plugin's operations, in the only order they can happen. */
export interface Chain {
  readonly plugin: string
  readonly ops: readonly string[]
}

/** All chains of a scenario, in declaration order. */
export interface Space {
  readonly chains: readonly Chain[]
  /** When a run recorded them: when each plugin applies, as a function of the release order (`applies.ts`). */
  readonly applies?: ApplyStructure
}

/** One interleaving: every operation of a space exactly once, each chain in order. */
export type Schedule = readonly string[]

/** A plugin as the space needs it: its id and how many registration batches it makes. */
export interface PluginShape {
  readonly id: string
  readonly batches: number
}

/** What a plugin id looks like; `:`, `,`, `@`, `+` and `#` never occur in one, nor a leading `_`. */
export const PLUGIN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** The chain of timers the base composition (no loader entry) sets up; no plugin id can take it. */
export const ROOT_CHAIN = '_root'

const OP_PATTERN = /^([A-Za-z0-9][A-Za-z0-9._-]*|_root)(?:#([1-9][0-9]*)|#timer([1-9][0-9]*))?$/

/** The label of a plugin's operation: batch 1 is the import itself, batch k ≥ 2 the gap before it. */
export function opLabel(plugin: string, batch: number): string {
  return batch === 1 ? plugin : `${plugin}#${batch}`
}

/** The label of the k-th timer (k ≥ 1) set up by `chain`'s code. */
export function timerLabel(chain: string, k: number): string {
  return `${chain}#timer${k}`
}

/** One operation, read from its label: a plugin's import, the gap before its batch k ≥ 2, or its k-th timer. */
export type ParsedOp =
  | { plugin: string, kind: 'import' }
  | { plugin: string, kind: 'batch', batch: number }
  | { plugin: string, kind: 'timer', timer: number }

/** Reads an operation label, or `undefined` when it is not one. */
export function parseOp(op: string): ParsedOp | undefined {
  const match = OP_PATTERN.exec(op)
  if (match === null) return undefined
  const plugin = match[1] as string
  if (match[3] !== undefined) {
    const timer = Number(match[3])
    return Number.isSafeInteger(timer) ? { plugin, kind: 'timer', timer } : undefined
  }
  if (plugin === ROOT_CHAIN) return undefined
  if (match[2] === undefined) return { plugin, kind: 'import' }
  const batch = Number(match[2])
  return batch >= 2 && Number.isSafeInteger(batch) ? { plugin, kind: 'batch', batch } : undefined
}

/** The plugin an operation belongs to (`tool-fs#3` → `tool-fs`). */
export function pluginOf(op: string): string {
  const parsed = parseOp(op)
  if (parsed === undefined) throw new Error(`"${op}" is not an operation label (expected <plugin>, <plugin>#<batch ≥ 2> or <plugin>#timer<k ≥ 1>)`)
  return parsed.plugin
}

/** Builds the space of a scenario's plugins, in the order given. */
export function spaceOf(plugins: readonly PluginShape[]): Space {
  const seen = new Set<string>()
  const chains = plugins.map(({ id, batches }): Chain => {
    if (!PLUGIN_ID_PATTERN.test(id)) {
      throw new Error(`plugin id "${id}" must match ${PLUGIN_ID_PATTERN.source}`)
    }
    if (seen.has(id)) throw new Error(`plugin id "${id}" is declared twice`)
    seen.add(id)
    if (!Number.isSafeInteger(batches) || batches < 1) {
      throw new Error(`plugin "${id}" needs a whole number of batches ≥ 1, got ${batches}`)
    }
    return { plugin: id, ops: Array.from({ length: batches }, (_, i) => opLabel(id, i + 1)) }
  })
  return { chains }
}

/** How many operations a space has. */
export function opCount(space: Space): number {
  return space.chains.reduce((total, chain) => total + chain.ops.length, 0)
}

/** How many schedules a space has: the multinomial (Σk)! / Πk! over chain lengths k. */
export function spaceSize(space: Space): bigint {
  let size = 1n
  let placed = 0n
  for (const chain of space.chains) {
    // Multiply by C(placed + k, k), one factor at a time; every partial product is an integer.
    for (let i = 1n; i <= BigInt(chain.ops.length); i++) {
      placed += 1n
      size = (size * placed) / i
    }
  }
  return size
}

/** Whether `schedule` is one of the space's schedules. */
export function isSchedule(space: Space, schedule: readonly string[]): boolean {
  const chainOf = new Map<string, number>()
  space.chains.forEach((chain, index) => chain.ops.forEach((op) => chainOf.set(op, index)))
  if (schedule.length !== chainOf.size) return false
  const next = space.chains.map(() => 0)
  for (const op of schedule) {
    const index = chainOf.get(op)
    if (index === undefined) return false
    const chain = space.chains[index] as Chain
    const at = next[index] as number
    if (chain.ops[at] !== op) return false
    next[index] = at + 1
  }
  return true
}

/** A string identifying a schedule, for deduplication (`,` never occurs in an operation label). */
export function scheduleKey(schedule: Schedule): string {
  return schedule.join(',')
}

/**
 * The schedule that runs chains in the given owner order: `owners[i]` is the
 * chain index whose next operation runs at step i. Each chain index must occur
 * exactly as many times as its chain has operations.
 */
export function scheduleFromOwners(space: Space, owners: readonly number[]): Schedule {
  if (owners.length !== opCount(space)) {
    throw new Error(`owner sequence does not fit the space (${owners.length} steps for ${opCount(space)} operations)`)
  }
  const next = space.chains.map(() => 0)
  return owners.map((owner, step) => {
    const at = next[owner] ?? 0
    const op = space.chains[owner]?.ops[at]
    if (op === undefined) throw new Error(`owner sequence does not fit the space (chain ${owner} at step ${step})`)
    next[owner] = at + 1
    return op
  })
}

/** The multiset of chain owners, one entry per operation, in declaration order. */
export function ownerMultiset(space: Space): number[] {
  return space.chains.flatMap((chain, index) => chain.ops.map(() => index))
}
