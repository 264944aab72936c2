import type { Context, Plugin } from '@deepseek-ai/cordis'
import type { EntryOptions } from '@deepseek-ai/cordis-plugin-loader'
import { pathToFileURL } from 'node:url'
import type { PluginSpec, Scenario } from '../scenario/scenario.ts'
import type { ServiceEntry } from '../targets/target.ts'
import type { Settlement } from './operations.ts'
import type { ScheduledClasses } from './scheduled-loader.ts'
import { BOOTSTRAP_INCLUDE_ID } from '../scenario/entry-labels.js'
import { toolPlugin, type PluginServices } from '../plugins/tool-plugin.ts'
import { listenerPlugin } from '../plugins/listener-plugin.ts'
import { importFailure, misbehave } from '../plugins/faults.ts'
import { includeFileOf } from './include-file.ts'
import { observedNamespace } from './dropped-applies.ts'

/** The module specifier an entry names: the module path for real modules, a `loadrace:` name for synthetic plugins. */
function specifierOf(spec: PluginSpec): string {
  return spec.kind === 'module' ? spec.module : `loadrace:${spec.id}`
}

/** The plugin object a synthetic spec stands for in one interleaving (built fresh per interleaving). */
function syntheticPlugin(spec: Exclude<PluginSpec, { kind: 'module' }>, services: PluginServices): Plugin {
  switch (spec.kind) {
    case 'tools': return toolPlugin(spec, services)
    case 'listener': return listenerPlugin(spec)
    case 'fault': return {
      name: spec.id,
      async apply(ctx: Context) {
        await misbehave(ctx, spec.fault, spec.id, services.mounted)
      },
    }
  }
}

function faultOf(spec: PluginSpec) {
  return spec.kind === 'tools' || spec.kind === 'fault' ? spec.fault : undefined
}

/**
 * How the import of one entry settles once the scheduler releases it. A real
 * module hands the loader its namespace (the loader's `unwrapExports` picks
 * the plugin; a plain-function `apply` is observed, see `dropped-applies.ts`),
 * or rethrows its load error as a fresh error with the same text; the include plugin named by package hands over the scheduled
 * Include, so the tree it mounts is scheduled too.
 */
export function settlementOf(spec: PluginSpec, services: PluginServices, classes: ScheduledClasses): Settlement<unknown> {
  if (spec.kind === 'module') {
    const outcome = spec.outcome
    if (outcome.kind === 'failed') return { kind: 'value', produce: () => { throw new Error(outcome.error) } }
    const namespace = spec.include ? { default: classes.Include } : observedNamespace(outcome.namespace)
    return { kind: 'value', produce: () => namespace }
  }
  const fault = faultOf(spec)
  if (fault === 'import-hangs') return { kind: 'never' }
  if (fault === 'import-rejects') return { kind: 'value', produce: () => { throw importFailure(spec.id) } }
  const plugin = syntheticPlugin(spec, services)
  return { kind: 'value', produce: () => ({ default: plugin }) }
}

/** The cordis.yml entry of one base-composition service racing as an entry. */
export function serviceEntryOptions(entry: ServiceEntry): EntryOptions {
  return entry.config === undefined ? { id: entry.id, name: `loadrace:${entry.id}` } : { id: entry.id, name: `loadrace:${entry.id}`, config: entry.config }
}

/** The cordis.yml entries of a scenario that lists its plugins, in file order. */
export function entriesOf(scenario: Scenario): EntryOptions[] {
  return scenario.plugins.map((spec) => {
    const entry: EntryOptions = { id: spec.id, name: specifierOf(spec) }
    if (spec.kind === 'module' && spec.config !== undefined) entry.config = spec.config
    if (spec.inject.length > 0) entry.inject = [...spec.inject]
    return entry
  })
}

/** What the root loader mounts, and which entries' imports it asks for at once. */
export interface RootMount {
  entries: EntryOptions[]
  /** Labels of the imports requested as soon as the entries are mounted. */
  initial: string[]
}

/**
 * The root loader's entries for one interleaving: the service entries and the
 * scenario's plugins in memory, or behind the bootstrap include (`cordis:include`
 * with the pinned id `include`, as dsh's app boot mounts its cordis.yml) when
 * the scenario loads through a file: the scenario's own cordis.yml
 * (`entries:`), or one written from its plugins (`loader: include`).
 */
export async function rootMount(scenario: Scenario, services: readonly ServiceEntry[]): Promise<RootMount> {
  const listed = [...services.map(serviceEntryOptions), ...scenario.entries ? [] : entriesOf(scenario)]
  const initial = [...listed.map(entry => entry.id), ...scenario.entries?.initial ?? []]
  if (scenario.loader !== 'include') return { entries: listed, initial }
  const path = scenario.entries ? pathToFileURL(scenario.entries.file).href : await includeFileOf(scenario, listed)
  const carried = scenario.entries ? services.map(serviceEntryOptions) : []
  return { entries: [...carried, { id: BOOTSTRAP_INCLUDE_ID, name: 'cordis:include', config: { path } }], initial }
}
