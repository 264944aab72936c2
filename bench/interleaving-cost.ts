import { Context } from '@deepseek-ai/cordis'
import { Loader } from '@deepseek-ai/cordis-plugin-loader'
import { projectWithBytes } from '../harness/oracle/projection.ts'
import { toolPlugin, type PluginHost } from '../harness/plugins/tool-plugin.ts'
import { runInterleaving } from '../harness/run/interleaving.ts'
import { entriesOf } from '../harness/run/modules.ts'
import { disposeAll } from '../harness/run/teardown.ts'
import type { Scenario } from '../harness/scenario/types.ts'
import { referenceTarget } from '../harness/targets/reference.ts'
import type { Mounted, Observation } from '../harness/targets/types.ts'
import { whenActive } from '../src/composition.ts'
import { createDeterministicEnvironment } from '../src/runtime/environment.ts'
import { compareTasks } from './clock.ts'
import type { BootVariant, InterleavingFigures } from './figures.ts'

/**
 * One interleaving against its floor: the same composition (the reference
 * target's base composition plus the scenario's tool plugins) booted with
 * plain `ctx.plugin()` calls and one turn. Between the two, the same boot
 * through the real cordis loader without a scheduler shows how much of the
 * difference is the loader itself.
 */

/** A fresh root with the reference target's base composition mounted on it. */
function mountBase(scenario: Scenario): { root: Context, mounted: Mounted } {
  const root = new Context()
  const mounted = referenceTarget.mount(root, {
    app: scenario.app,
    config: scenario.config,
    base: scenario.base,
    variant: scenario.variant,
    invariant: scenario.invariant,
    services: 'root',
    environment: createDeterministicEnvironment(),
  })
  return { root, mounted }
}

/** The scenario's tool plugins, built for `mounted` (no batches or `when:` guards need a scheduler here). */
function toolPlugins(scenario: Scenario, mounted: Mounted) {
  const host: PluginHost = {
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

/** Runs `boot` with cordis's stack traces off, as the harness runs an interleaving. */
async function withoutStacks<T>(boot: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return await boot()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** The floor: base composition, each tool plugin through `ctx.plugin()`, one turn. */
export function plainBoot(scenario: Scenario, teardown: boolean): Promise<Observation> {
  return withoutStacks(async () => {
    const { root, mounted } = mountBase(scenario)
    await whenActive(root, 'agentLoop')
    await Promise.all(toolPlugins(scenario, mounted).map(({ plugin }) => root.plugin(plugin)))
    const observation = await mounted.runTurns(1)
    if (teardown) disposeAll(root)
    return observation
  })
}

/** The real cordis loader with every import settled at once (no scheduler), then one turn. */
export function loaderBoot(scenario: Scenario): Promise<Observation> {
  return withoutStacks(async () => {
    const { root, mounted } = mountBase(scenario)
    const plugins = new Map(toolPlugins(scenario, mounted).map(({ id, plugin }) => [`loadrace:${id}`, plugin]))
    class ImmediateLoader extends Loader {
      override import(name: string) {
        return Promise.resolve({ default: plugins.get(name) })
      }
    }
    root.plugin(ImmediateLoader)
    await whenActive(root, 'loader')
    const loader = root.get('loader') as Loader
    await loader.root.update(entriesOf(scenario))
    await loader.await()
    await whenActive(root, 'agentLoop')
    const observation = await mounted.runTurns(1)
    disposeAll(root)
    return observation
  })
}

/** The bytes a boot's observation projects to. */
function bytesOf(observation: Observation): string {
  return projectWithBytes({ observation, loadErrors: [], stuck: null }).json
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
export async function measureInterleaving(scenario: Scenario): Promise<InterleavingFigures> {
  const schedule = scenario.plugins.map(spec => spec.id)
  const reference = (await runInterleaving(scenario, referenceTarget, schedule)).json
  for (const [name, boot] of [['plain', () => plainBoot(scenario, false)], ['loader', () => loaderBoot(scenario)]] as const) {
    if (bytesOf(await boot()) !== reference) throw new Error(`the ${name} boot of ${scenario.name} does not reproduce the harness's bytes`)
  }
  const described: Omit<BootVariant, 'msPerRun' | 'ratio'>[] = [
    { name: 'floor', what: 'plain ctx.plugin() boot + one turn' },
    { name: 'floor + teardown', what: 'the same, plugins disposed afterwards' },
    { name: 'real loader', what: 'cordis loader entries, imports settled at once, + turn + teardown' },
    { name: 'harness', what: 'one scheduled interleaving: loader, releases, quiescence, stuck checks, sandbox, projection, hash' },
  ]
  const costs = await compareTasks([
    { name: 'floor', run: () => plainBoot(scenario, false) },
    { name: 'floor + teardown', run: () => plainBoot(scenario, true) },
    { name: 'real loader', run: () => loaderBoot(scenario) },
    { name: 'harness', run: () => runInterleaving(scenario, referenceTarget, schedule) },
  ], { rounds: 5, msPerRound: 1200, batch: 2, warmupCalls: 60 })
  const variants = described.map((variant, index): BootVariant => ({ ...variant, msPerRun: costs[index]!.msPerCall, ratio: costs[index]!.ratio }))
  const harness = variants[variants.length - 1]!
  return {
    scenario: scenario.name,
    plugins: scenario.plugins.length,
    variants,
    ratio: harness.ratio,
    perSecond: await wallThroughput(scenario, schedule, 150),
    perCpuSecond: 1000 / harness.msPerRun,
  }
}
