import type { Context, Plugin } from '@deepseek-ai/cordis'
import type { EntryOptions } from '@deepseek-ai/cordis-plugin-loader'
import type { PluginSpec, Scenario } from '../scenario/types.ts'
import type { ServiceEntry } from '../targets/types.ts'
import type { Settlement } from '../loader/operations.ts'
import { toolPlugin, type PluginHost } from '../plugins/tool-plugin.ts'
import { listenerPlugin } from '../plugins/listener-plugin.ts'
import { importFailure, misbehave } from '../plugins/faults.ts'

/** The module specifier an entry names: the module path for real modules, a `loadrace:` name for synthetic plugins. */
function specifierOf(spec: PluginSpec): string {
  return spec.kind === 'module' ? spec.module : `loadrace:${spec.id}`
}

/** The plugin object a spec stands for in one interleaving (synthetic plugins are built fresh per interleaving). */
function pluginOf(spec: PluginSpec, host: PluginHost): Plugin {
  switch (spec.kind) {
    case 'tools': return toolPlugin(spec, host)
    case 'listener': return listenerPlugin(spec)
    case 'module': return spec.plugin
    case 'fault': return {
      name: spec.id,
      async apply(ctx: Context) {
        await misbehave(ctx, spec.fault, spec.id, host.mounted)
      },
    }
  }
}

function faultOf(spec: PluginSpec) {
  return spec.kind === 'tools' || spec.kind === 'fault' ? spec.fault : undefined
}

/** How the import of one entry settles once the scheduler releases it. */
export function settlementOf(spec: PluginSpec, host: PluginHost): Settlement<unknown> {
  const fault = faultOf(spec)
  if (fault === 'import-hangs') return { kind: 'never' }
  if (fault === 'import-rejects') return { kind: 'value', produce: () => { throw importFailure(spec.id) } }
  const plugin = pluginOf(spec, host)
  return { kind: 'value', produce: () => ({ default: plugin }) }
}

/** The cordis.yml entry of one base-composition service racing as an entry. */
export function serviceEntryOptions(entry: ServiceEntry): EntryOptions {
  return entry.config === undefined ? { id: entry.id, name: `loadrace:${entry.id}` } : { id: entry.id, name: `loadrace:${entry.id}`, config: entry.config }
}

/** The cordis.yml entries of a scenario, in file order. */
export function entriesOf(scenario: Scenario): EntryOptions[] {
  return scenario.plugins.map((spec) => {
    const entry: EntryOptions = { id: spec.id, name: specifierOf(spec) }
    if (spec.kind === 'module' && spec.config !== undefined) entry.config = spec.config
    if (spec.inject.length > 0) entry.inject = [...spec.inject]
    return entry
  })
}
