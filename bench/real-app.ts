import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tick } from '../harness/runtime/quiescence.ts'
import { runInterleaving, type InterleavingPhase } from '../harness/runtime/interleaving.ts'
import { loadScenario } from '../harness/scenario/load.ts'
import type { Scenario } from '../harness/scenario/scenario.ts'
import type { Schedule } from '../harness/space/space.ts'
import { discoverSpace } from '../harness/explore/explore.ts'
import { planFor } from '../harness/explore/plan.ts'
import { inProcessRunner } from '../harness/runners/runner.ts'
import { loadTarget } from '../harness/targets/index.ts'
import type { Target } from '../harness/targets/target.ts'
import { compareTasks, cpuNow, withCosts } from './clock.ts'
import type { BootVariant, PhaseCost, RealAppFigures, RealThroughput } from './figures.ts'
import { loaderBoot, type ImportOrder } from './loader-boot.ts'
import { ownerShares, profiled } from './profile.ts'

/**
 * The bundled real application — dsh's `examples/acp-agent` tool set at rc.8,
 * 29 loader entries mounted from its cordis.yml through the real
 * `cordis:include`, on the published packages — measured against the real
 * loader's own boot of the same file, with the throughput of a sweep over it,
 * and where that throughput goes, by phase and by owner.
 */
export const REAL_APP = fileURLToPath(new URL('../apps/acp-agent/tools.yml', import.meta.url))

/** How long to measure: the full run, or a smoke run (`--quick`). */
export interface RealAppOptions {
  quick: boolean
  onStep?: (text: string) => void
}

const PHASES: readonly { phase: InterleavingPhase, name: string, what: string }[] = [
  { phase: 'setup', name: 'setup', what: 'fresh context, base composition mounted, scheduled loader started' },
  { phase: 'boot', name: 'boot', what: 'cordis.yml mounted through cordis:include, every operation released in schedule order, quiescence after each' },
  { phase: 'turns', name: 'turn', what: 'one turn on the scripted model; requests and session log rewritten for determinism' },
  { phase: 'projection', name: 'projection', what: 'inactive entries, projection bytes and hash, contributions' },
  { phase: 'teardown', name: 'teardown', what: 'timers and listeners removed, contexts disposed, and the disposal work that runs before the next macrotask turn' },
]

/** How the phases of an application's interleaving differ from a composition's. */
const APPLICATION_PHASES: Partial<Record<InterleavingPhase, string>> = {
  setup: 'fresh context and temporary folder, the ACP transport and request recorder installed, scheduled loader started',
  turns: 'the snapshot\'s ACP steps over loadrace\'s transport, dsh-llm-replay serving the recorded session; ids and folders rewritten for determinism',
}

/** CPU ms of each phase of one interleaving (the teardown until the next macrotask turn), and the total. */
async function timedInterleaving(scenario: Scenario, target: Target, schedule: Schedule): Promise<{ phases: number[], total: number }> {
  const marks = new Map<InterleavingPhase, number>()
  const started = cpuNow()
  await runInterleaving(scenario, target, schedule, { onPhase: phase => marks.set(phase, cpuNow()) })
  await tick()
  const ended = cpuNow()
  let previous = started
  const phases = PHASES.map(({ phase }, index) => {
    const at = index === PHASES.length - 1 ? ended : marks.get(phase)
    if (at === undefined) throw new Error(`an interleaving of ${scenario.name} ended before its ${phase} phase`)
    const spent = at - previous
    previous = at
    return spent
  })
  return { phases, total: ended - started }
}

/**
 * Interleavings per CPU second over the scenario's own plan (cycled); each
 * phase's mean CPU time; and the owners of the CPU samples of a profiled
 * stretch of the same interleavings.
 */
async function measureThroughput(scenario: Scenario, target: Target, plan: readonly Schedule[], runs: number): Promise<RealThroughput> {
  const sums = { phases: PHASES.map(() => 0), total: 0 }
  let next = 0
  const schedule = () => plan[next++ % plan.length]!
  for (let i = 0; i < runs; i++) {
    const { phases, total } = await timedInterleaving(scenario, target, schedule())
    phases.forEach((spent, index) => { sums.phases[index]! += spent })
    sums.total += total
  }
  // An application (app: entries) has no base composition of loadrace's, and its turn is the ACP steps.
  const application = scenario.app === 'entries'
  const phases = PHASES.map(({ phase, name, what }, index): PhaseCost => ({ phase: name, what: application ? APPLICATION_PHASES[phase] ?? what : what, ms: sums.phases[index]! / runs }))
  const msPerRun = sums.total / runs
  const profile = await profiled(async () => {
    for (let i = 0; i < Math.max(10, runs / 2); i++) await runInterleaving(scenario, target, schedule())
  })
  const owners = ownerShares(profile, msPerRun)
  return {
    interleavings: runs,
    perCpuSecond: 1000 / msPerRun,
    phases,
    owners,
    largestOwn: owners.find(owner => owner.loadrace)?.owner ?? '—',
  }
}

/**
 * Measures the real application: checks that the harness, the real loader
 * with every import at once and the real loader with imports one by one all
 * reach the same projection bytes; times them side by side (CPU time,
 * interleaved rounds); then measures the throughput and its breakdown.
 */
export async function measureRealApp(file: string, options: RealAppOptions): Promise<RealAppFigures> {
  const scenario = await loadScenario(file)
  const target = await loadTarget(scenario.target)
  const space = await discoverSpace(scenario, inProcessRunner())
  const declared = space.chains.flatMap(chain => chain.ops)
  const imports = scenario.plugins.map(spec => spec.id)
  const atOnce: ImportOrder = { kind: 'at-once' }
  const oneByOne: ImportOrder = { kind: 'one-by-one', order: imports }
  const reference = (await runInterleaving(scenario, target, declared)).json
  for (const order of [atOnce, oneByOne]) {
    if (await loaderBoot(scenario, target, order, true) !== reference) {
      throw new Error(`the real loader's boot of ${scenario.name} (imports ${order.kind}) does not reach the harness's bytes`)
    }
  }
  options.onStep?.(`${scenario.name}: ${declared.length} operations, the same ${reference.length}-character projection through the harness and the real loader`)
  const described: Omit<BootVariant, 'msPerRun' | 'ratio' | 'stackTraceLimit'>[] = [
    { name: 'real loader', what: 'the cordis.yml through the real cordis:include, every import settled at once, no scheduler; one turn; teardown' },
    { name: 'real loader, one by one', what: 'the same, imports settled one at a time in declaration order, a macrotask turn apart' },
    { name: 'harness', what: 'one scheduled interleaving in declaration order: releases, quiescence, stuck checks, sandbox, attribution, projection, hash' },
  ]
  const costs = await compareTasks([
    { name: 'real loader', run: () => loaderBoot(scenario, target, atOnce) },
    { name: 'real loader, one by one', run: () => loaderBoot(scenario, target, oneByOne) },
    { name: 'harness', run: () => runInterleaving(scenario, target, declared) },
  ], options.quick ? { rounds: 2, msPerRound: 300, batch: 1, warmupCalls: 3 } : { rounds: 10, msPerRound: 500, batch: 1, warmupCalls: 10 })
  const variants: BootVariant[] = withCosts(described, costs)
  const plan = planFor(scenario, { strategy: 'auto', budget: scenario.budget ?? 24, seed: '0' }, space).schedules
  return {
    scenario: scenario.name,
    file: relative(process.cwd(), file),
    target: scenario.target,
    entries: declared.length,
    projectionChars: reference.length,
    variants,
    overhead: variants.find(variant => variant.name === 'harness')!.ratio,
    throughput: await measureThroughput(scenario, target, plan, options.quick ? 20 : 100),
  }
}
