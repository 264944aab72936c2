import type { Loader } from '@deepseek-ai/cordis-plugin-loader'
import { tick } from '../harness/runtime/quiescence.ts'
import { scheduledClasses, scheduleImports } from '../harness/runtime/scheduled-loader.ts'
import { projectWithBytes } from '../harness/projection/projection.ts'
import type { PluginServices } from '../harness/plugins/tool-plugin.ts'
import { inactiveEntries } from '../harness/runtime/inactive.ts'
import { rootMount, settlementOf } from '../harness/runtime/entries.ts'
import { disposeAll } from '../harness/runtime/teardown.ts'
import { entryLabel } from '../harness/scenario/entry-labels.js'
import type { Scenario } from '../harness/scenario/scenario.ts'
import { mountOptionsOf } from '../harness/runtime/mount-options.ts'
import type { Target } from '../harness/targets/target.ts'
import { whenActive } from '../src/composition.ts'
import { isolate } from '../harness/runtime/workdir.ts'

/**
 * A scenario booted through the real cordis loader without loadrace's
 * scheduler: the same base composition, the same loader entries (a cordis.yml
 * through the real `cordis:include`, exactly as the harness mounts it), every
 * import answered with the module the scenario loaded — and then one turn.
 * No operation pool, no quiescence, no sandbox, no attribution, no
 * projection: what is left is the loader's own work and the system's (in a
 * fresh folder of its own, as every interleaving and dsh's own snapshot
 * harness run the app), under the same `Error.stackTraceLimit` as an
 * interleaving: the process's own, which neither side changes (cordis
 * captures a stack for many calls, so a floor timed with captures off is
 * flattered).
 *
 * `at-once` settles every import as soon as the loader asks for it (a warm
 * module cache); `one-by-one` settles them in the given order, one macrotask
 * turn apart, so cordis applies the plugins one at a time as under the
 * scheduler, which shows how much of the scheduler's cost is the loader
 * doing its work in that many steps.
 */
export type ImportOrder =
  | { kind: 'at-once' }
  /** `waitMs`: how long to wait for the loader to ask for the next import (default ten seconds). */
  | { kind: 'one-by-one', order: readonly string[], waitMs?: number }

/** Resolves once the loader asks for `label` (the include reads its file first); rejects after `waitMs`. */
function askedFor(label: string, awaited: Map<string, () => void>, scenario: string, waitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the loader never asked for "${label}" of ${scenario}`)), waitMs)
    awaited.set(label, () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/**
 * Boots `scenario` on `target` through the real loader (see {@link ImportOrder}),
 * runs its turns and disposes the contexts. With `project`, returns the
 * projection's bytes, for checking that this boot reaches the very bytes the
 * harness does; else `undefined`.
 */
export async function loaderBoot(scenario: Scenario, target: Target, imports: ImportOrder, project = false): Promise<string | undefined> {
  const system = await target.system(scenario.system)
  const classes = scheduledClasses(system)
  // The same isolation as an interleaving's (a fresh folder, the scenario's variables, a snapshot's): the app reads them.
  const isolation = isolate(scenario.env, workdir => target.isolation?.(scenario, workdir) ?? {})
  const root = new system.cordis.Context()
  const mounted = target.mount(root, mountOptionsOf(scenario, system, isolation.workdir))
  // Batches and `when:` guards of synthetic plugins need no scheduler here: every gate is open.
  const host: PluginServices = { mounted, gate: () => Promise.resolve(), hasRegistered: () => true }
  const specs = new Map(scenario.plugins.map(spec => [spec.id, spec]))
  const services = new Map(mounted.entries.map(entry => [entry.id, entry]))
  const asked = new Map<string, () => void>()
  const awaited = new Map<string, () => void>()
  scheduleImports(root, (entryId) => {
    const label = entryLabel(entryId)
    const service = services.get(label)
    const spec = specs.get(label)
    const settlement = service ? { kind: 'value' as const, produce: () => ({ default: service.plugin }) } : spec && settlementOf(spec, host, classes)
    if (settlement?.kind !== 'value') return Promise.reject(new Error(`the loader boot cannot import "${label}" of ${scenario.name}`))
    if (imports.kind === 'at-once') return Promise.resolve(settlement.produce())
    return new Promise((resolve) => {
      asked.set(label, () => resolve(settlement.produce()))
      awaited.get(label)?.()
    })
  })
  try {
    root.plugin(classes.Loader)
    await whenActive(root, 'loader')
    const loader = root.get('loader') as Loader
    const mount = await rootMount(scenario, mounted.entries)
    const updated = loader.root.update(mount.entries)
    if (imports.kind === 'one-by-one') {
      for (const label of imports.order) {
        if (!asked.has(label)) await askedFor(label, awaited, scenario.name, imports.waitMs ?? 10_000)
        asked.get(label)!()
        await tick()
      }
    }
    await updated
    await loader.await()
    const observation = await mounted.runTurns(scenario.turns)
    return project ? projectWithBytes({ observation, loadErrors: [], stuck: null, inactive: inactiveEntries(root) }).json : undefined
  } finally {
    disposeAll(root)
    isolation.end(false)
  }
}
