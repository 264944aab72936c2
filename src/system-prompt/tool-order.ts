import type { ToolSchema } from '../llm/contract.ts'

/**
 * The rest entry of `toolOrder`: the position where every registered tool the
 * list does not name is inserted. This is the single place the literal lives.
 */
export const TOOL_ORDER_REST = '<unlisted-tools>'

/**
 * Code-unit (UTF-16) comparison of two names: the same answer on every host
 * and in every locale. Never `localeCompare`.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The system prompt's seam of an ordering variant: how the assembly sorts names. */
export interface NameOrdering {
  /**
   * The comparator the assembly sorts names with (the lexicographic default and
   * the unlisted tools at the rest entry). `null`: the assembly keeps collection order.
   */
  readonly compareNames: ((a: string, b: string) => number) | null
  /** Whether the unknown-name error lists the known tools sorted (dsh) or in collection order. */
  readonly sortKnownNames: boolean
}

/** The canonical assembly (dsh): code-unit order, and the known tools listed sorted. */
export const CANONICAL_NAME_ORDERING: NameOrdering = Object.freeze({ compareNames: compareCodeUnits, sortKnownNames: true })

/**
 * A stable sort of named items by name; `compare === null` keeps the given
 * order. Always returns a new array.
 */
export function sortByName<T extends { readonly name: string }>(
  items: readonly T[],
  compare: ((a: string, b: string) => number) | null,
): T[] {
  const copy = [...items]
  if (compare === null) return copy
  return copy.sort((a, b) => compare(a.name, b.name))
}

/**
 * Checks the shape of a configured `toolOrder` (registered names are checked
 * later, by `orderTools`, because tool plugins register after the service
 * constructs).
 *
 * - `undefined`: no policy; the assembly uses lexicographic order.
 * - the first name seen twice (the rest entry included) is rejected;
 * - a list without the rest entry (an empty list too) is rejected.
 *
 * Decision on `null` (what a YAML key with no value produces, and what
 * schemastery passes through): dsh fails here with a bare
 * "toolOrder is not iterable" TypeError. loadrace rejects it, and any other
 * non-list value, with a message naming the key and the received kind, so the
 * misconfiguration reads as one. Non-string entries are rejected likewise.
 *
 * @returns a frozen copy of the list, or `undefined` in lexicographic mode.
 */
export function validateToolOrder(list: unknown): readonly string[] | undefined {
  if (list === undefined) return undefined
  if (!Array.isArray(list)) {
    throw new TypeError(`toolOrder must be a list of tool names or omitted; got ${describeKind(list)}`)
  }
  const seen = new Set<string>()
  list.forEach((name: unknown, index) => {
    if (typeof name !== 'string') {
      throw new TypeError(`toolOrder entries must be tool names (strings); got ${describeKind(name)} at index ${index}`)
    }
    if (seen.has(name)) throw new Error(`toolOrder lists "${name}" more than once`)
    seen.add(name)
  })
  if (!seen.has(TOOL_ORDER_REST)) {
    throw new Error(`toolOrder must contain the "${TOOL_ORDER_REST}" rest entry (where unlisted tools are inserted)`)
  }
  return Object.freeze([...seen])
}

function describeKind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value
}

/**
 * Puts the collected tools into the model-facing order.
 *
 * 1. A tool named like the rest entry is rejected first, with or without a
 *    configured list.
 * 2. Without a list: all tools sorted by name.
 * 3. Listed names that no provider knows are rejected together, in list order;
 *    the message lists the known names (sorted when the variant says so).
 * 4. With a list: each listed name expands to every collected tool of that
 *    name (collection order), the rest entry expands to the unlisted tools
 *    sorted by name. A known name with no visible tool expands to nothing.
 *
 * No tool is dropped and same-named tools are never merged. The variant
 * supplies the comparator (`null` keeps collection order) and whether the
 * known list is sorted; with the canonical variant this is exactly dsh.
 */
export function orderTools(
  tools: readonly ToolSchema[],
  toolOrder: readonly string[] | undefined,
  knownNames: ReadonlySet<string>,
  variant: NameOrdering,
): ToolSchema[] {
  if (tools.some(tool => tool.name === TOOL_ORDER_REST)) {
    throw new Error(`tool provider returned reserved tool name "${TOOL_ORDER_REST}" (reserved for toolOrder's rest entry)`)
  }
  if (toolOrder === undefined) return sortByName(tools, variant.compareNames)

  const unknown = toolOrder.filter(name => name !== TOOL_ORDER_REST && !knownNames.has(name))
  if (unknown.length > 0) throw unknownNamesError(unknown, knownNames, variant.sortKnownNames)

  const listed = new Set(toolOrder)
  // One pass groups the listed tools by name (collection order kept within a
  // name), so placing them costs O(T) rather than one scan of all tools per name.
  const byName = new Map<string, ToolSchema[]>()
  const unlisted: ToolSchema[] = []
  for (const tool of tools) {
    if (!listed.has(tool.name)) unlisted.push(tool)
    else {
      const group = byName.get(tool.name)
      if (group === undefined) byName.set(tool.name, [tool])
      else group.push(tool)
    }
  }
  const rest = sortByName(unlisted, variant.compareNames)
  return toolOrder.flatMap(name => name === TOOL_ORDER_REST ? rest : byName.get(name) ?? [])
}

function unknownNamesError(unknown: readonly string[], knownNames: ReadonlySet<string>, sortKnown: boolean): Error {
  const noun = unknown.length === 1 ? 'tool' : 'tools'
  const quoted = unknown.map(name => `"${name}"`).join(', ')
  const known = sortKnown ? [...knownNames].sort() : [...knownNames]
  return new Error(`toolOrder lists unregistered ${noun} ${quoted}; known tools: ${known.join(', ') || '(none)'}`)
}
