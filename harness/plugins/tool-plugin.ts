import type { Context } from '@deepseek-ai/cordis'
import type { ToolsPluginSpec } from '../scenario/scenario.ts'
import type { Mounted } from '../targets/target.ts'
import { misbehave } from './faults.ts'

/** What a synthetic plugin needs from the interleaving it runs in. */
export interface PluginServices {
  mounted: Mounted
  /** Waits until the scheduler releases `label` (a gap between registration batches). */
  gate(label: string): Promise<void>
  /** Whether plugin `id` has registered (for `when:` conditions). */
  hasRegistered(ctx: Context, id: string): boolean
}

/** The label of the scheduling point before batch `index` (0-based) of plugin `id`. */
export function batchLabel(id: string, index: number): string {
  return `${id}#${index + 1}`
}

function conditionHolds(ctx: Context, spec: ToolsPluginSpec, services: PluginServices): boolean {
  if (!spec.when) return true
  return spec.when.after.every(id => services.hasRegistered(ctx, id))
    && !spec.when.before.some(id => services.hasRegistered(ctx, id))
}

/**
 * A synthetic tool plugin: registers its first batch when applied, then waits
 * for the scheduler before each further batch, so registrations of different
 * plugins interleave. A `when:` guard is evaluated at each batch.
 */
export function toolPlugin(spec: ToolsPluginSpec, services: PluginServices) {
  return {
    name: spec.id,
    inject: [services.mounted.toolService],
    async apply(ctx: Context) {
      for (const [index, batch] of spec.batches.entries()) {
        if (index > 0) await services.gate(batchLabel(spec.id, index))
        if (!conditionHolds(ctx, spec, services)) continue
        for (const tool of batch) {
          services.mounted.registerTool(ctx, structuredClone(tool), { weight: spec.weight })
        }
      }
      if (spec.fault) await misbehave(ctx, spec.fault, spec.id, services.mounted)
    },
  }
}
