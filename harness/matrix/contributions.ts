import type { FaultKind, ListenerPluginSpec, PluginSpec, Scenario } from '../scenario/scenario.ts'
import { editToolList } from '../plugins/listener-plugin.ts'
import { compareCodeUnits, TOOL_ORDER_REST } from './rfc.ts'

/**
 * What a scenario's definition says about who contributes which tools to its
 * header: the facts the matrix's rules are stated in. Everything here is read
 * from the scenario file (its plugins, listeners, weights, tool names,
 * toolOrder and `expect` block), never from a sweep.
 */

/** A plugin whose tools the assembly collects and orders. */
export interface Contributor {
  id: string
  /** The plugin's `weight` (absent counts as 0), read by the per-plugin-weight variant. */
  weight: number
  /**
   * The distinct tool names it contributes; null for a module plugin whose
   * names the definition does not say (no expected header to attribute from).
   */
  names: string[] | null
}

/** Faults after which a tool plugin keeps no tool registered (it never applies, or its registrations are disposed). */
const SILENCING_FAULTS: readonly FaultKind[] = ['import-rejects', 'import-hangs', 'apply-throws', 'apply-hangs']

/** The names a tool plugin keeps registered. */
function registeredNames(spec: PluginSpec): string[] {
  if (spec.kind !== 'tools' || (spec.fault !== undefined && SILENCING_FAULTS.includes(spec.fault))) return []
  return spec.batches.flat().map(tool => tool.name)
}

/** The names a listener adds to the header. */
function addedNames(spec: PluginSpec): string[] {
  return spec.kind === 'listener' ? [...spec.listener.prepend, ...spec.listener.append] : []
}

/** `names` minus one occurrence of each of `taken`. */
function withoutOnce(names: readonly string[], taken: readonly string[]): string[] {
  const left = [...names]
  for (const name of taken) {
    const at = left.indexOf(name)
    if (at >= 0) left.splice(at, 1)
  }
  return left
}

/** The header tool names the scenario's `expect` block states (`header` or `tools`), or undefined. */
export function expectedHeaderNames(scenario: Scenario): string[] | undefined {
  return scenario.expect.header?.map(tool => tool.name) ?? scenario.expect.tools
}

/**
 * The plugins whose tools the assembly collects, in file order: tool plugins
 * that keep a registration, and module plugins. Module plugins are opaque:
 * the expected header's names that no synthetic plugin declares are
 * attributed to every module plugin; without an expected header a module
 * plugin counts as contributing names the definition does not say. Listener
 * plugins are not collected: what they add is placed after the canonical
 * order is made (the RFC leaves listeners to own their determinism).
 */
export function collectedContributors(scenario: Scenario): Contributor[] {
  const expected = expectedHeaderNames(scenario)
  const declared = scenario.plugins.flatMap(spec => [...registeredNames(spec), ...addedNames(spec)])
  const fromModules = expected === undefined ? null : [...new Set(withoutOnce(expected, declared))]
  const contributors: Contributor[] = []
  for (const spec of scenario.plugins) {
    const names = spec.kind === 'module' ? fromModules : [...new Set(registeredNames(spec))]
    if (names === null || names.length > 0) contributors.push({ id: spec.id, weight: spec.weight ?? 0, names })
  }
  return contributors
}

/** Whether `name` is left to the canonical order: not named in `toolOrder` (every name is, without a toolOrder). */
function isUnlisted(scenario: Scenario, name: string): boolean {
  const toolOrder = scenario.config.toolOrder
  return toolOrder === undefined || !toolOrder.includes(name)
}

/** The contributors of tools to the unlisted part of the header, each with only its unlisted names. */
export function unlistedContributors(scenario: Scenario): Contributor[] {
  return collectedContributors(scenario)
    .map(contributor => ({ ...contributor, names: contributor.names?.filter(name => isUnlisted(scenario, name)) ?? null }))
    .filter(contributor => contributor.names === null || contributor.names.length > 0)
}

/**
 * Whether a configured toolOrder has a valid shape, by the RFC's rule: "The
 * list must contain the rest entry exactly once and no duplicate names." (An
 * absent toolOrder is valid: lexicographic order.)
 */
export function toolOrderShapeValid(toolOrder: readonly string[] | undefined): boolean {
  return toolOrder === undefined || (toolOrder.includes(TOOL_ORDER_REST) && new Set(toolOrder).size === toolOrder.length)
}

/**
 * Whether the scenario's turns log a request header: its expected outcome is
 * `completed`, or `load-error` from a plugin while SystemPrompt itself loads
 * (a toolOrder shape error "fail[s] from the service constructor", so no turn runs).
 */
export function headerLogged(scenario: Scenario): boolean {
  const outcome = scenario.expect.outcome
  return outcome === 'completed' || (outcome === 'load-error' && toolOrderShapeValid(scenario.config.toolOrder))
}

/**
 * "Racing": the header is logged and at least two different plugins
 * contribute tools to its unlisted part, so the order in which those tools
 * reach the model is the assembly's policy and no single plugin's.
 */
export function racingContributors(scenario: Scenario): Contributor[] | undefined {
  if (!headerLogged(scenario)) return undefined
  const contributors = unlistedContributors(scenario)
  return contributors.length >= 2 ? contributors : undefined
}

/**
 * The unknown-name shape: every turn is expected to fail, the configured
 * toolOrder lists a name no tool plugin registers, and at least two plugins
 * register the known names the error lists. Returns those plugins.
 */
export function unknownNameContributors(scenario: Scenario): Contributor[] | undefined {
  const toolOrder = scenario.config.toolOrder
  if (scenario.expect.outcome !== 'turn-error' || toolOrder === undefined) return undefined
  const known = collectedContributors(scenario)
  const registered = new Set(known.flatMap(contributor => contributor.names ?? []))
  const unknown = toolOrder.some(name => name !== TOOL_ORDER_REST && !registered.has(name))
  return unknown && known.length >= 2 ? known : undefined
}

/** The header the canonical order makes before any listener, by name (an unnamed module contribution is `<id>`). */
function canonicalNames(scenario: Scenario): string[] {
  const names = collectedContributors(scenario).flatMap(contributor => contributor.names ?? [`<${contributor.id}>`])
  const toolOrder = scenario.config.toolOrder
  const rest = names.filter(name => isUnlisted(scenario, name)).sort(compareCodeUnits)
  if (toolOrder === undefined) return rest
  return toolOrder.flatMap(name => name === TOOL_ORDER_REST ? rest : names.filter(other => other === name))
}

/** The header names after `listeners` ran in this order (the harness's own listener semantics). */
function afterListeners(names: readonly string[], listeners: readonly ListenerPluginSpec[]): string[] {
  const start = names.map(name => ({ name }))
  return listeners.reduce((tools, spec) => editToolList(tools, spec.listener, name => ({ name })), start).map(tool => tool.name)
}

/** Every order of `items` (for the few listeners of a scenario). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]]
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map(rest => [item, ...rest]))
}

/** Listeners whose orders are compared exhaustively; with more, they are taken not to commute. */
const MAX_LISTENERS_COMPARED = 6

/**
 * The listener plugins, when at least two of them do not commute: applied to
 * the canonical header in different orders (their registration order, which
 * is their plugins' load order) they leave different lists. Undefined when
 * the listeners cannot race.
 */
export function nonCommutingListeners(scenario: Scenario): string[] | undefined {
  const listeners = listenersOf(scenario)
  if (listeners.length < 2 || !headerLogged(scenario)) return undefined
  const ids = listeners.map(spec => spec.id)
  if (listeners.length > MAX_LISTENERS_COMPARED) return ids
  const start = canonicalNames(scenario)
  const results = new Set(permutations(listeners).map(order => afterListeners(start, order).join('\u0000')))
  return results.size > 1 ? ids : undefined
}

/** The listener plugins of a scenario, in file order. */
function listenersOf(scenario: Scenario): ListenerPluginSpec[] {
  return scenario.plugins.filter((spec): spec is ListenerPluginSpec => spec.kind === 'listener')
}

/** How many tools the logged header carries: the expected header's, or the canonical header's after the listeners' edits. */
export function headerSize(scenario: Scenario): number {
  const expected = expectedHeaderNames(scenario)
  if (expected !== undefined) return expected.length
  return afterListeners(canonicalNames(scenario), listenersOf(scenario)).length
}

/** The unlisted names the definition states (module plugins' unsaid names left out), for comparators. */
export function statedUnlistedNames(scenario: Scenario): string[] | undefined {
  const contributors = unlistedContributors(scenario)
  if (contributors.some(contributor => contributor.names === null)) return undefined
  return contributors.flatMap(contributor => contributor.names ?? [])
}
