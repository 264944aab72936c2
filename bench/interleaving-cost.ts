import { Context } from '@deepseek-ai/cordis'
import { projectWithBytes } from '../harness/projection/projection.ts'
import { toolPlugin, type PluginServices } from '../harness/plugins/tool-plugin.ts'
import { runInterleaving } from '../harness/runtime/interleaving.ts'
import { disposeAll } from '../harness/runtime/teardown.ts'
import type { Scenario } from '../harness/scenario/scenario.ts'
import { mountOptionsOf } from '../harness/runtime/mount-options.ts'
import { referenceTarget } from '../harness/targets/reference.ts'
import type { Mounted, Observation } from '../harness/targets/target.ts'
import { whenActive } from '../src/composition.ts'
import { countCaptures } from './captures.ts'
import { compareTasks, ratioOver, withCosts } from './clock.ts'
import type { BootVariant, CaptureFigures, InterleavingFigures } from './figures.ts'
import { loaderBoot, type ImportOrder } from './loader-boot.ts'
import { ownerShares, profiled } from './profile.ts'
import { HERE } from './machine.ts'

/**
 * One interleaving against its floor: the same composition (the reference
 * target's base composition plus the scenario's tool plugins) booted with
 * plain `ctx.plugin()` calls and one turn. Between the two, the same boot
 * through the real cordis loader without a scheduler (see `loader-boot.ts`)
 * shows how much of the difference is the loader itself.
 */

/** A fresh root with the reference target's base composition mounted on it. */
function mountBase(scenario: Scenario): { root: Context, mounted: Mounted } {
  const root = new Context()
  const mounted = referenceTarget.mount(root, { ...mountOptionsOf(scenario, scenario.system, HERE), services: 'root' })
  return { root, mounted }
}

/** The scenario's tool plugins, built for `mounted` (no batches or `when:` guards need a scheduler here). */
function toolPlugins(scenario: Scenario, mounted: Mounted) {
  const host: PluginServices = {
    mounted,
    gate: () => Promise.resolve(),
    hasRegistered: () => true,
  }
  return scenario.plugins.map((spec) => {
    if (spec.kind !== 'tools' || spec.batches.length !== 1 || spec.when !== undefined) {
      throw new Error(`the interleaving-cost scenario must hold single-batch tool plugins only ("${spec.id}" is not)`)
    }
    return { id: spec.id, plugin: toolPlugin(spec, host) }
  })
}

/** The floor: base composition, each tool plugin through `ctx.plugin()`, one turn (under the process's `Error.stackTraceLimit`, as the harness runs). */
export async function plainBoot(scenario: Scenario, teardown: boolean): Promise<Observation> {
  const { root, mounted } = mountBase(scenario)
  await whenActive(root, 'agentLoop')
  await Promise.all(toolPlugins(scenario, mounted).map(({ plugin }) => root.plugin(plugin)))
  const observation = await mounted.runTurns(1)
  if (teardown) disposeAll(root)
  return observation
}

/** The bytes a boot's observation projects to. */
function bytesOf(observation: Observation): string {
  return projectWithBytes({ observation, loadErrors: [], stuck: null }).json
}

/** The stack captures of one harness interleaving and of the real loader's boot, and which of the harness's are its own. */
async function captures(scenario: Scenario, schedule: readonly string[]): Promise<CaptureFigures> {
  const context = new Context() as unknown as Parameters<typeof countCaptures>[0]
  const harness = await countCaptures(context, () => runInterleaving(scenario, referenceTarget, schedule), 10)
  const loader = await countCaptures(context, () => loaderBoot(scenario, referenceTarget, { kind: 'at-once' }), 10)
  return {
    harness: harness.perRun,
    loader: loader.perRun,
    loadrace: Object.fromEntries(harness.loadrace.map(({ site, perRun }) => [`${site.prop} ${site.file} ${site.caller}`, perRun])),
  }
}

/** Sequential harness interleavings per wall-clock second. */
async function wallThroughput(scenario: Scenario, schedule: readonly string[], runs: number): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < runs; i++) await runInterleaving(scenario, referenceTarget, schedule)
  return runs / ((performance.now() - started) / 1000)
}

/**
 * Measures one harness interleaving of `scenario` against its floor. Checks
 * first that every variant yields the very bytes the harness does.
 */
export async function measureInterleaving(scenario: Scenario, options: { quick: boolean }): Promise<InterleavingFigures> {
  const schedule = scenario.plugins.map(spec => spec.id)
  const atOnce: ImportOrder = { kind: 'at-once' }
  const oneByOne: ImportOrder = { kind: 'one-by-one', order: schedule }
  const reference = (await runInterleaving(scenario, referenceTarget, schedule)).json
  if (bytesOf(await plainBoot(scenario, false)) !== reference) throw new Error(`the plain boot of ${scenario.name} does not reproduce the harness's bytes`)
  for (const order of [atOnce, oneByOne]) {
    if (await loaderBoot(scenario, referenceTarget, order, true) !== reference) {
      throw new Error(`the real loader's boot of ${scenario.name} (imports ${order.kind}) does not reproduce the harness's bytes`)
    }
  }
  const described: Omit<BootVariant, 'msPerRun' | 'ratio' | 'stackTraceLimit'>[] = [
    { name: 'floor', what: 'plain ctx.plugin() boot + one turn' },
    { name: 'floor + teardown', what: 'the same, plugins disposed afterwards' },
    { name: 'real loader', what: 'cordis loader entries, imports settled at once, + turn + teardown' },
    { name: 'real loader, one by one', what: 'the same, imports settled one at a time in declaration order, a macrotask turn apart' },
    { name: 'harness', what: 'one scheduled interleaving: loader, releases, quiescence, stuck checks, sandbox, projection, hash' },
  ]
  const costs = await compareTasks([
    { name: 'floor', run: () => plainBoot(scenario, false) },
    { name: 'floor + teardown', run: () => plainBoot(scenario, true) },
    { name: 'real loader', run: () => loaderBoot(scenario, referenceTarget, atOnce) },
    { name: 'real loader, one by one', run: () => loaderBoot(scenario, referenceTarget, oneByOne) },
    { name: 'harness', run: () => runInterleaving(scenario, referenceTarget, schedule) },
  ], options.quick ? { rounds: 2, msPerRound: 300, batch: 2, warmupCalls: 10 } : { rounds: 10, msPerRound: 500, batch: 2, warmupCalls: 60 })
  const variants: BootVariant[] = withCosts(described, costs)
  const harness = variants[variants.length - 1]!
  const profile = await profiled(async () => {
    for (let i = 0; i < (options.quick ? 30 : 300); i++) await runInterleaving(scenario, referenceTarget, schedule)
  })
  return {
    scenario: scenario.name,
    plugins: scenario.plugins.length,
    variants,
    ratio: harness.ratio,
    loaderRatio: ratioOver(costs.find(cost => cost.name === 'harness')!, costs.find(cost => cost.name === 'real loader')!),
    owners: ownerShares(profile, harness.msPerRun),
    captures: await captures(scenario, schedule),
    perSecond: await wallThroughput(scenario, schedule, options.quick ? 30 : 150),
    perCpuSecond: 1000 / harness.msPerRun,
  }
}
