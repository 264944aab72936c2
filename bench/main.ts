/**
 * `npm run bench`: measures loadrace's cost and bug-finding power and writes
 * `reports/bench.json` and `reports/bench.md` (atomically). Progress goes to
 * stderr. `--sections assembly,interleaving,scale-out,memory,power,coverage`
 * runs a subset (the others are reported as not run); `--quick` shrinks every
 * section for a smoke run.
 */
import { writeFilesAtomically } from '../harness/report/write.ts'
import { loadScenario } from '../harness/scenario/load.ts'
import { ASSEMBLY_SIZES, measureAssembly } from './assembly.ts'
import { measureCoverage } from './coverage.ts'
import type { AssemblyFigure, BenchFigures } from './figures.ts'
import { measureInterleaving } from './interleaving-cost.ts'
import { machineInfo } from './machine.ts'
import { measureMemory } from './memory.ts'
import { EIGHT_TOOLS } from './planted.ts'
import { measurePower, POWER_BUDGET, POWER_SEEDS } from './power.ts'
import { renderBenchJson, renderBenchMarkdown } from './report.ts'
import { measureScaleOut } from './scale-out.ts'
import { boundSymbol, targetsOf } from './targets.ts'
import { measureTimerStability } from './timer-stability.ts'

const SECTIONS = ['assembly', 'interleaving', 'scale-out', 'memory', 'power', 'coverage', 'timers'] as const
type Section = typeof SECTIONS[number]

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
  const figures = await measureInterleaving(await loadScenario(EIGHT_TOOLS))
  for (const variant of figures.variants) say(`  ${variant.name}: ${variant.msPerRun.toFixed(2)} CPU ms, ${variant.ratio.toFixed(2)}×`)
  say(`  ${figures.perSecond.toFixed(0)} interleavings/s wall`)
  return figures
})

// Nothing below measures CPU time side by side: the memory sweep (a child process)
// runs beside the power trials; the wall-clock scale-out runs last, alone.
const memoryRun = section('memory', sections, () => measureMemory(EIGHT_TOOLS, quick ? 2_000 : 40_320))
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
const coverage = await section('coverage', sections, async () => measureCoverage())
const timers = await section('timers', sections, () => measureTimerStability(quick ? 3 : 10, (ms, distinct) => say(`  await ${ms} ms: ${distinct} distinct result${distinct === 1 ? '' : 's'}`)))
const memory = await memoryRun
if (memory !== null) say(`  memory: ${memory.growthMb.toFixed(1)} MB RSS growth over ${memory.interleavings} interleavings`)
const scaleOut = await section('scale-out', sections, () => measureScaleOut(EIGHT_TOOLS, {
  interleavings: quick ? 200 : 800,
  repeats: quick ? 1 : 3,
  onRun: run => say(`  workers=${run.workers} ${run.runner}: ${run.perSecond.toFixed(0)} interleavings/s (${run.coresUsed.toFixed(2)} cores)`),
}))

const figures: BenchFigures = {
  startedAt,
  wallSeconds: (performance.now() - started) / 1000,
  machine,
  assembly,
  interleaving,
  scaleOut,
  memory,
  power,
  coverage,
  timers,
}
const written = await writeFilesAtomically('reports', [
  { file: 'bench.json', content: renderBenchJson(figures) },
  { file: 'bench.md', content: renderBenchMarkdown(figures) },
])
for (const target of targetsOf(figures)) {
  const verdict = target.measured === null ? 'not run' : target.met ? 'met    ' : 'MISSED '
  say(`  ${verdict} ${target.id}: ${target.measured === null ? '—' : target.measured.toFixed(2)} (target ${boundSymbol(target.id)} ${target.target} ${target.unit})`)
}
say(`wrote ${written.join(', ')} in ${figures.wallSeconds.toFixed(0)} s`)
