import type { Loader } from '@deepseek-ai/cordis-plugin-loader'
import type { PluginServices } from '../plugins/tool-plugin.ts'
import { entryLabel } from '../scenario/entry-labels.js'
import { watchContributions } from './contributions.ts'
import { AppliesRecorder } from '../preload/applies.js'
import { driveSchedule } from './drive.ts'
import { rootMount, settlementOf } from './entries.ts'
import { mountOptionsOf } from './mount-options.ts'
import { finish, inSystem, settle, stuckInfo, waitControl, type Interleaving, type InterleavingResult } from './run-state.ts'
import { scheduleImports } from './scheduled-loader.ts'
import { settleOrStuck } from './settle.ts'

/**
 * The phases of one interleaving, each a function over the {@link Interleaving}
 * under way. A phase that ends the run early (stuck, or a boot that leaves
 * the loop unable to serve) returns its result; otherwise it returns nothing
 * and the next phase runs.
 */

/** Records a load error the loader threw rather than logged (once: the update and the boot may both throw it). */
function recordLoadError(run: Interleaving, error: unknown): void {
  const text = error instanceof Error ? error.message : String(error)
  if (!run.loadErrors.includes(text)) run.loadErrors.push(text)
}

/** What a synthetic plugin needs of the run: the base composition, a gate per batch, and who has registered. */
function pluginServices(run: Interleaving): PluginServices {
  const { pool, scenario } = run
  const mounted = run.mounted!
  return {
    mounted,
    gate: label => pool.hold(label, { kind: 'value', produce: () => undefined }),
    hasRegistered: (ctx, id) => {
      const spec = scenario.plugins.find(plugin => plugin.id === id)
      if (spec?.kind === 'tools') return spec.batches[0]!.every(tool => mounted.hasTool(ctx, tool.name))
      return pool.released().includes(id)
    },
  }
}

/**
 * Setup: the base composition mounted on the fresh root, its contributions
 * and its plugins' applies watched, every entry's import turned into an
 * operation the scheduler holds, and the scheduled loader started.
 */
export async function setUp(run: Interleaving): Promise<void> {
  const { root, pool, scenario } = run
  const mounted = inSystem(run, () => run.target.mount(root, mountOptionsOf(scenario, run.system, run.isolation.workdir)))
  run.mounted = mounted
  run.contributions = watchContributions(root)
  run.applies = new AppliesRecorder(() => run.pool.released().length)
  run.applies.watch(root as unknown as Parameters<AppliesRecorder['watch']>[0])
  const pluginNeeds = pluginServices(run)
  const specs = new Map(scenario.plugins.map(spec => [spec.id, spec]))
  const services = new Map(mounted.entries.map(entry => [entry.id, entry]))
  scheduleImports(root, (entryId) => {
    const label = entryLabel(entryId)
    const service = services.get(label)
    if (service) return pool.hold(label, { kind: 'value', produce: () => ({ default: service.plugin }) })
    const stand = mounted.stands?.(label)
    if (stand) return pool.hold(label, { kind: 'value', produce: () => ({ default: stand }) })
    const spec = specs.get(label)
    if (!spec) return Promise.reject(new Error(`no plugin "${label}" in scenario ${scenario.name}`))
    return pool.hold(label, settlementOf(spec, pluginNeeds, run.classes))
  })
  // `root.registry` and `root.reflect` are the services behind cordis's `root.plugin` and `root.get` mixins, read
  // without the accessor lookup (cordis builds an Error for every context property that is not the context's own).
  inSystem(run, () => root.registry.plugin(run.classes.Loader))
  await settle(run)
  const loader = root.reflect.get('loader') as Loader | undefined
  if (!loader) throw new Error('scheduled loader did not start')
  run.loader = loader
  run.options.onPhase?.('setup')
}

/**
 * Boot: the scenario's entries handed to the loader, their imports released
 * in schedule order (each followed by quiescence), and the loader's boot
 * awaited, with the promises of plain-function `apply`s cordis drops. Ends the run when it is stuck, or when the loop cannot serve turns.
 */
export async function boot(run: Interleaving): Promise<InterleavingResult | undefined> {
  const loader = run.loader!
  const mounted = run.mounted!
  const wait = waitControl(run)
  const mount = await rootMount(run.scenario, mounted.entries)
  // A transactional loader (dsh's vendored one) rejects the update when an entry fails to import or apply, and rolls
  // the tree back; the published one logs the failure and boots the rest. Either way it is the system's load error.
  inSystem(run, () => loader.root.update(mount.entries)).then(() => {}, (error: unknown) => recordLoadError(run, error))

  const imports = await settleOrStuck(run.pool.whenRequested(mount.initial), wait)
  if (imports.kind === 'stuck') return finish(run, undefined, stuckInfo(run, imports.reason, 'boot'))
  const booted = inSystem(run, () => loader.await())
  // Booting until the loader's boot and every apply promise cordis drops have settled (see dropped-applies.ts).
  const startedUp = booted.then(() => run.dropped.settled(), () => run.dropped.settled())
  let booting = true
  void startedUp.then(() => { booting = false })
  await (run.options.drive ?? driveSchedule)(run.pool, run.schedule, () => settle(run), () => booting)
  const settled = await settleOrStuck(booted, wait)
  if (settled.kind === 'stuck') return finish(run, undefined, stuckInfo(run, settled.reason, 'boot'))
  if (settled.kind === 'rejected') recordLoadError(run, settled.error)
  // A plain-function apply's promise, which cordis drops, is start-up work all the same (see dropped-applies.ts).
  const applies = await settleOrStuck(run.dropped.settled(), wait)
  if (applies.kind === 'stuck') return finish(run, undefined, stuckInfo(run, applies.reason, 'boot'))

  const problem = mounted.bootProblem()
  if (problem !== undefined) {
    run.loadErrors.push(problem)
    return finish(run, undefined, null)
  }
  run.options.onPhase?.('boot')
  return undefined
}

/** Turns: the scenario's turns on one fresh agent, then the projection of what they observed. */
export async function turns(run: Interleaving): Promise<InterleavingResult> {
  run.pool.phase = 'turns'
  const result = await settleOrStuck(inSystem(run, () => run.mounted!.runTurns(run.scenario.turns)), waitControl(run))
  run.options.onPhase?.('turns')
  if (result.kind === 'stuck') return finish(run, undefined, stuckInfo(run, result.reason, 'turns'))
  if (result.kind === 'rejected') throw result.error
  return finish(run, result.value, null)
}
