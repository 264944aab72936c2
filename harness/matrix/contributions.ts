import type { FaultKind, PluginSpec, Scenario } from '../scenario/types.ts'
import type { ScenarioReport } from '../report/types.ts'
import { TOOL_ORDER_REST } from '../../src/system-prompt/tool-order.ts'

/**
 * Who contributes which tools to a scenario's header, read from the scenario
 * definition and the header of its canonical run. The matrix's expectation
 * rules are stated in these terms.
 */

/** A plugin whose tools the assembly collects and orders, with the names it contributes. */
export interface Contributor {
  id: string
  /** The plugin's `weight` (absent counts as 0), read by the per-plugin-weight variant. */
  weight: number
  /** The distinct tool names it contributes. */
  names: string[]
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

/**
 * The plugins whose tools the assembly collects from its providers, in file
 * order: tool plugins that keep a registration, and module plugins that add
 * tools. Module plugins are opaque, so the canonical header's names that no
 * synthetic plugin declares are attributed to every module plugin (each
 * counts when there are any). Listener plugins are not collected tools: what
 * they add is placed by the listener after the canonical order is made (the
 * RFC leaves listeners to own their determinism), so it takes no part in the
 * registration-order race; their names are only subtracted.
 */
export function collectedContributors(scenario: Scenario, canonicalTools: readonly string[]): Contributor[] {
  const declared = scenario.plugins.flatMap(spec => [...registeredNames(spec), ...addedNames(spec)])
  const fromModules = withoutOnce(canonicalTools, declared)
  const contributors: Contributor[] = []
  for (const spec of scenario.plugins) {
    const names = spec.kind === 'module' ? fromModules : registeredNames(spec)
    if (names.length > 0) contributors.push({ id: spec.id, weight: spec.weight ?? 0, names: [...new Set(names)] })
  }
  return contributors
}

/** Whether `name` is left to the canonical order: not named in `toolOrder` (every name is, without a toolOrder). */
function isUnlisted(scenario: Scenario, name: string): boolean {
  const toolOrder = scenario.config.toolOrder
  return toolOrder === undefined || !toolOrder.includes(name)
}

/** The contributors of tools to the unlisted part of the header, each with only its unlisted names. */
export function unlistedContributors(scenario: Scenario, canonicalTools: readonly string[]): Contributor[] {
  return collectedContributors(scenario, canonicalTools)
    .map(contributor => ({ ...contributor, names: contributor.names.filter(name => isUnlisted(scenario, name)) }))
    .filter(contributor => contributor.names.length > 0)
}

/** The header tool names of the canonical run's first output (empty when its turns failed). */
export function canonicalTools(canonical: ScenarioReport): string[] {
  return canonical.outputs[0]?.tools ?? []
}

/**
 * "Racing": under canonical the outcome is `completed` and at least two
 * different plugins contribute tools to the unlisted part of the header, so
 * the order those tools reach the model in is the assembly's policy and no
 * single plugin's.
 */
export function racingContributors(scenario: Scenario, canonical: ScenarioReport): Contributor[] | undefined {
  if (canonical.outcome !== 'completed') return undefined
  const contributors = unlistedContributors(scenario, canonicalTools(canonical))
  return contributors.length >= 2 ? contributors : undefined
}

/**
 * The unknown-name shape: under canonical every turn fails, the configured
 * toolOrder lists a name no tool plugin registers, and at least two tool
 * plugins register the known names the error lists. Returns those plugins.
 * (A failed turn logs no header, so module providers cannot be seen here.)
 */
export function unknownNameContributors(scenario: Scenario, canonical: ScenarioReport): Contributor[] | undefined {
  const toolOrder = scenario.config.toolOrder
  if (canonical.outcome !== 'turn-error' || toolOrder === undefined) return undefined
  // Without header names to attribute, only tool plugins contribute.
  const known = collectedContributors(scenario, [])
  const registered = new Set(known.flatMap(contributor => contributor.names))
  const unknown = toolOrder.some(name => name !== TOOL_ORDER_REST && !registered.has(name))
  return unknown && known.length >= 2 ? known : undefined
}
