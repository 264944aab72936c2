import type { BenchFigures, BootVariant, TargetResult } from './figures.ts'
import { boundSymbol, targetsOf } from './targets.ts'

/** `reports/bench.json`: the raw figures plus the judged targets. */
export interface BenchReport extends BenchFigures {
  targets: TargetResult[]
}

/** The report object of `figures`. */
export function benchReport(figures: BenchFigures): BenchReport {
  return { ...figures, targets: targetsOf(figures) }
}

/** The bytes of `reports/bench.json`. */
export function renderBenchJson(figures: BenchFigures): string {
  return `${JSON.stringify(benchReport(figures), null, 2)}\n`
}

function fixed(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined ? '—' : value.toFixed(digits)
}

/** Interleavings to a divergence; `null` means the percentile lies beyond the budget. */
function reach(value: number | null, budget: number): string {
  return value === null ? `>${budget}` : String(value)
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map(row => `| ${row.join(' | ')} |`),
  ]
}

function targetLines(targets: readonly TargetResult[]): string[] {
  return table(['target', 'measured', 'target', 'unit', 'met'], targets.map(target => [
    `\`${target.id}\``,
    fixed(target.measured, 2),
    `${boundSymbol(target.id)} ${target.target}`,
    target.unit,
    target.measured === null ? 'not run' : target.met ? 'yes' : '**no**',
  ]))
}

function assemblyLines(figures: BenchFigures): string[] {
  if (figures.assembly === null) return ['Not run.']
  return [
    'Floor: collect the registered schemas, `structuredClone` each one\'s parameters, one code-unit sort of the names. CPU time, medians over interleaved rounds.',
    '',
    ...table(['tools', 'toolOrder', 'floor µs/tool', 'assemble() µs/tool', 'assemble / floor'], figures.assembly.map(figure => [
      String(figure.tools),
      figure.toolOrder ? 'T/2 listed + rest' : 'none',
      fixed(figure.floorUsPerTool, 2),
      fixed(figure.assembleUsPerTool, 2),
      `${fixed(figure.ratio, 2)}×`,
    ])),
  ]
}

/** `a`'s per-run cost over `b`'s, when both variants are present. */
function relative(variants: readonly BootVariant[], a: string, b: string): number[] {
  const over = variants.find(variant => variant.name === a)
  const under = variants.find(variant => variant.name === b)
  return over === undefined || under === undefined ? [] : [over.msPerRun / under.msPerRun]
}

function interleavingLines(figures: BenchFigures): string[] {
  const cost = figures.interleaving
  if (cost === null) return ['Not run.']
  return [
    `Scenario \`${cost.scenario}\` (${cost.plugins} tool plugins), CPU time per run, medians over interleaved rounds.`,
    '',
    ...table(['variant', 'what', 'CPU ms/run', '× floor'], cost.variants.map(variant => [
      variant.name, variant.what, fixed(variant.msPerRun, 2), `${fixed(variant.ratio, 2)}×`,
    ])),
    '',
    `Harness: **${fixed(cost.perSecond, 0)} interleavings/s** wall clock on one core (${fixed(cost.perCpuSecond, 0)} per CPU second).`,
    ...relative(cost.variants, 'harness', 'real loader').map(ratio => `The harness costs ${fixed(ratio, 2)}× the real loader's own boot of the same composition.`),
  ]
}

function scaleLines(figures: BenchFigures): string[] {
  const lines: string[] = []
  const scale = figures.scaleOut
  if (scale === null) lines.push('Scale-out: not run.')
  else {
    lines.push(
      `Exhaustive sweep of \`${scale.scenario}\`, wall clock, best of the repeats.`,
      '',
      ...table(['workers', 'runner', 'interleavings', 'seconds', 'interleavings/s', 'cores used'], scale.runs.map(run => [
        String(run.workers), run.runner, String(run.interleavings), fixed(run.seconds, 2), fixed(run.perSecond, 0), fixed(run.coresUsed, 2),
      ])),
      '',
      `\`--workers 2\` / \`--workers 1\`: **${fixed(scale.scaling, 2)}×**; pool of 2 / pool of 1: ${fixed(scale.poolScaling, 2)}×. `
        + `The machine itself gave two threads of pure arithmetic ${fixed(scale.machineScaling, 2)}× one thread at that time.`,
    )
  }
  const memory = figures.memory
  lines.push('')
  if (memory === null) lines.push('Memory: not run.')
  else {
    lines.push(
      `Memory: an exhaustive sweep of \`${memory.scenario}\` (${memory.interleavings} interleavings, ${fixed(memory.seconds, 0)} s) in one process: `
        + `RSS ${fixed(memory.rssBeforeMb, 1)} MB → ${fixed(memory.rssAfterMb, 1)} MB after forced GC, growth **${fixed(memory.growthMb, 1)} MB** `
        + `(heap used ${fixed(memory.heapUsedGrowthMb, 1)} MB), the sweep's report still alive.`,
    )
  }
  return lines
}

function powerLines(figures: BenchFigures): string[] {
  const power = figures.power
  if (power === null) return ['Not run.']
  return [
    `${power.seeds} seeds per row, budget ${power.budget} interleavings per trial, each trial stopped at its first divergence `
      + `(nearest-rank percentiles over all trials; >${power.budget} = not reached within the budget).`,
    '',
    ...power.bugs.map(bug => `- **${bug.id}** (\`${bug.scenario}\`, ${bug.plugins} plugins): ${bug.what}.`),
    '',
    ...table(['strategy', 'bug', 'detected', 'median', 'p95', 'max', 'planned'], power.rows.map(row => [
      row.strategy,
      row.bug,
      `${row.detected}/${row.trials} (${fixed(row.rate * 100, 1)} %)`,
      reach(row.median, power.budget),
      reach(row.p95, power.budget),
      reach(row.max, power.budget),
      row.planned === null ? '—' : row.planned.min === row.planned.max ? String(row.planned.min) : `${row.planned.min}–${row.planned.max}`,
    ])),
  ]
}

function coverageLines(figures: BenchFigures): string[] {
  if (figures.coverage === null) return ['Not run.']
  return [
    'Size of the `cover` set (largest over five seeds) for n single-batch plugins.',
    '',
    ...table(['n', 't = 2', 't = 3', 'n!'], figures.coverage.map(row => [
      String(row.plugins), String(row.t2), String(row.t3), row.factorial,
    ])),
  ]
}

function timerLines(figures: BenchFigures): string[] {
  if (figures.timers === null) return ['Not run.']
  return [
    'A plugin awaits a timer of the given delay before registering, racing a synthetic plugin under the pre-RFC',
    'registration-order policy (`bench/scenarios/await-<ms>-ms.yml`); the same sweep runs again and again.',
    '',
    ...table(['await', 'runs', 'distinct results', 'verdicts'], figures.timers.rows.map(row => [
      `${row.ms} ms`, String(row.runs), String(row.distinctResults), row.verdicts.join(', '),
    ])),
  ]
}

/** The bytes of `reports/bench.md`: the same figures as tables, targets first. */
export function renderBenchMarkdown(figures: BenchFigures): string {
  const { machine } = figures
  const lines = [
    '# loadrace bench',
    '',
    `Run ${figures.startedAt}, ${fixed(figures.wallSeconds, 0)} s wall clock. Machine: ${machine.cpuModel}, ${machine.cores} cores, `
      + `Node ${machine.node} (${machine.platform}), load average at start ${machine.loadAverage.map(load => load.toFixed(2)).join(' / ')}.`,
    '',
    '## Targets',
    '',
    ...targetLines(targetsOf(figures)),
    '',
    '## Bug-finding power',
    '',
    ...powerLines(figures),
    '',
    '## Assembly cost',
    '',
    ...assemblyLines(figures),
    '',
    '## Interleaving cost',
    '',
    ...interleavingLines(figures),
    '',
    '## Scale-out and memory',
    '',
    ...scaleLines(figures),
    '',
    '## Coverage cost',
    '',
    ...coverageLines(figures),
    '',
    '## Plugins that await timers',
    '',
    ...timerLines(figures),
  ]
  return `${lines.join('\n')}\n`
}
