import type { BenchFigures, BootVariant, CaptureFigures, MemoryFigures, OwnerTime, RealAppFigures, ReportedFigure, ScaleOutFigures, TargetResult } from './figures.ts'
import { boundSymbol, reportedOf, targetsOf } from './targets.ts'

/** `reports/bench.json`: the raw figures plus the judged targets and the figures reported without a target. */
export interface BenchReport extends BenchFigures {
  targets: TargetResult[]
  reported: ReportedFigure[]
}

/** The report object of `figures`. */
export function benchReport(figures: BenchFigures): BenchReport {
  return { ...figures, targets: targetsOf(figures), reported: reportedOf(figures) }
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

/** The `Error.stackTraceLimit` of a ratio's two sides, `measured / reference` (`—`: not a ratio of two boots, or not run). */
function limitsOf(target: TargetResult): string {
  const limits = target.stackTraceLimit
  return limits === undefined ? '—' : `${limits.measured ?? 'varied'} / ${limits.reference ?? 'varied'}`
}

function targetLines(targets: readonly TargetResult[]): string[] {
  return table(['target', 'measured', 'target', 'unit', 'Error.stackTraceLimit (measured / reference)', 'met'], targets.map(target => [
    `\`${target.id}\``,
    `${fixed(target.measured, 2)}${target.rounds === undefined ? '' : ` (${fixed(target.rounds.low, 2)}–${fixed(target.rounds.high, 2)})`}`,
    `${boundSymbol(target.id)} ${target.target}`,
    target.unit,
    limitsOf(target),
    target.measured === null ? 'not run' : target.met ? 'yes' : '**no**',
  ]))
}

function reportedLines(reported: readonly ReportedFigure[]): string[] {
  return table(['figure', 'measured', 'unit'], reported.map(figure => [`\`${figure.id}\``, fixed(figure.measured, 2), figure.unit]))
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

/** The `Error.stackTraceLimit` a variant was timed under (`varied` when it changed; `—` in a report written before it was recorded). */
function stackLimit(variant: BootVariant): string {
  return variant.stackTraceLimit === undefined ? '—' : String(variant.stackTraceLimit ?? 'varied')
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
    ...table(['variant', 'what', 'CPU ms/run', '× floor', 'Error.stackTraceLimit'], cost.variants.map(variant => [
      variant.name, variant.what, fixed(variant.msPerRun, 2), `${fixed(variant.ratio, 2)}×`, stackLimit(variant),
    ])),
    '',
    `Harness: **${fixed(cost.perSecond, 0)} interleavings/s** wall clock on one core (${fixed(cost.perCpuSecond, 0)} per CPU second).`,
    `The harness costs **${fixed(cost.loaderRatio, 2)}×** the real loader's own boot of the same composition (imports at once)`
      + `${relative(cost.variants, 'harness', 'real loader, one by one').map(ratio => `, ${fixed(ratio, 2)}× the real loader with imports one by one`).join('')}.`,
    '',
    ...captureLines(cost.captures),
    'Where the harness interleaving\'s CPU time goes (a V8 sampling profile; samples in Node\'s own JavaScript charged to their caller):',
    '',
    ...ownerTable(cost.owners),
  ]
}

/** Stack captures per run on both sides, and the harness's own reads among them. */
function captureLines(captures: CaptureFigures): string[] {
  const own = Object.entries(captures.loadrace)
  return [
    `Stack captures cordis's context proxy makes per run (a count): **${fixed(captures.harness, 1)}** in the harness interleaving, ${fixed(captures.loader, 1)} in the real loader's boot.`
      + ` Of the harness's, loadrace's own reads: ${own.length === 0 ? 'none' : own.map(([site, perRun]) => `${fixed(perRun, 1)} × \`${site}\``).join(', ')}.`,
    '',
  ]
}

function ownerTable(owners: readonly OwnerTime[]): string[] {
  return table(['owner', 'loadrace', 'share', 'CPU ms/run'], owners.map(owner => [
    owner.owner, owner.loadrace ? 'yes' : '', `${fixed(owner.share * 100, 1)} %`, fixed(owner.msPerRun, 2),
  ]))
}

function realLines(real: RealAppFigures | null): string[] {
  if (real === null) return ['Not run.']
  const { throughput } = real
  return [
    `Scenario \`${real.scenario}\` (\`${real.file}\`, target \`${real.target}\`): ${real.entries} loader entries mounted through the real `
      + `\`cordis:include\`; every variant reaches the same ${real.projectionChars}-character projection. CPU time per run, medians over interleaved rounds.`,
    '',
    ...table(['variant', 'what', 'CPU ms/run', '× real loader', 'Error.stackTraceLimit'], real.variants.map(variant => [
      variant.name, variant.what, fixed(variant.msPerRun, 2), `${fixed(variant.ratio, 2)}×`, stackLimit(variant),
    ])),
    '',
    `Throughput over the scenario's own plan (${throughput.interleavings} interleavings): `
      + `**${fixed(throughput.perCpuSecond, 1)} interleavings per CPU second**.`,
    '',
    ...table(['phase', 'what', 'CPU ms'], [
      ...throughput.phases.map(phase => [phase.phase, phase.what, fixed(phase.ms, 2)]),
      ['total', '', fixed(throughput.phases.reduce((sum, phase) => sum + phase.ms, 0), 2)],
    ]),
    '',
    'Where the CPU time goes (a V8 sampling profile of the same interleavings; samples in Node\'s own JavaScript charged to their caller):',
    '',
    ...ownerTable(throughput.owners),
    '',
    `The largest part that is loadrace's own: ${throughput.largestOwn}.`,
  ]
}

function scaleOutLines(scale: ScaleOutFigures): string[] {
  return [
    ...table(['configuration', 'processes', 'interleavings', 'seconds', 'interleavings/s', 'cores used', 'CPU ms/interleaving'], scale.runs.map(run => [
      run.configuration, String(run.processes), String(run.interleavings), fixed(run.seconds, 2), fixed(run.perSecond, 1), fixed(run.coresUsed, 2),
      fixed(run.cpuMsPerInterleaving, 2),
    ])),
    '',
    `\`--workers 2\` / the two-stream ceiling: **${fixed(scale.efficiency, 3)}**; \`--workers 2\` / one stream: ${fixed(scale.scaling, 2)}×; `
      + `two streams / one stream (the ceiling's own scaling): ${fixed(scale.ceilingScaling, 2)}×. `
      + `Split: two worker streams / two streams (running in worker processes) ${fixed(scale.workerProcessEfficiency, 3)}; `
      + `\`--workers 2\` / two worker streams (one pool for both workers) ${fixed(scale.poolEfficiency, 3)}.`,
  ]
}

function memoryLine(memory: MemoryFigures): string {
  const heap = memory.checkpoints.map(point => fixed(point.heapUsedMb, 1)).join(' → ')
  return `\`${memory.scenario}\`, ${memory.strategy}, ${memory.interleavings} interleavings in ${fixed(memory.seconds, 0)} s, one process: `
    + `RSS ${fixed(memory.rssBeforeMb, 1)} MB → ${fixed(memory.rssAfterMb, 1)} MB after forced GC, growth **${fixed(memory.growthMb, 1)} MB**; `
    + `live heap growth ${fixed(memory.heapUsedGrowthMb, 1)} MB (the sweep's report still alive); live heap every tenth of the sweep: ${heap} MB.`
}

function scaleLines(figures: BenchFigures): string[] {
  const lines: string[] = []
  const scale = figures.scaleOut
  if (scale === null) lines.push('Scale-out: not run.')
  else {
    lines.push(
      'Each stream is a process sweeping the same seeded random plan with the runner `loadrace sweep --workers N` uses; two streams are two '
        + '`--workers 1` processes at once, their throughputs over the window both ran added (the two-stream ceiling); two worker streams are two '
        + 'processes at once that each run their interleavings in one worker process of their own. Each run follows a fifth of its plan run '
        + 'untimed for each process that runs interleavings (two fifths for `--workers 2`). CPU counts every thread of every process, the workers included. Wall clock, '
        + `${scale.synthetic.repeats} rounds; a round runs every configuration twice, in one order and then in the reverse order, and adds its two `
        + 'runs up; the table gives each configuration\'s best round.',
      '',
      `Synthetic \`${scale.synthetic.scenario}\`:`,
      '',
      ...scaleOutLines(scale.synthetic),
      '',
      `Real application \`${scale.real.scenario}\`:`,
      '',
      ...scaleOutLines(scale.real),
      '',
      `The machine itself gave two threads of pure arithmetic ${fixed(scale.machineScaling, 2)}× one thread at that time.`,
    )
  }
  const memory = figures.memory
  lines.push('')
  if (memory === null) lines.push('Memory: not run.')
  else lines.push('Memory:', '', `- ${memoryLine(memory.synthetic)}`, `- ${memoryLine(memory.real)}`)
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
    ...table(['n', 't = 2', 't = 3', 'n!'], figures.coverage.sizes.map(row => [
      String(row.plugins), String(row.t2), String(row.t3), row.factorial,
    ])),
    '',
    'Over the space a scenario shows when run (one run in declaration order; its timers join their plugins\' chains): the cover(3) rows '
      + '(largest over five seeds) and the interleavings `--strategy cover` plans there, next to n! of its operations and the size of the space.',
    '',
    ...table(['scenario', 'declared', 'discovered', 'chains', 't = 3 rows', 'planned', 'n!', 'space'], figures.coverage.discovered.map(row => [
      `\`${row.scenario}\``, String(row.declared), String(row.operations), String(row.chains), String(row.t3), String(row.planned), row.factorial, row.size,
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

function helperLines(figures: BenchFigures): string[] {
  const helper = figures.helper
  if (helper === null) return ['Not run.']
  const [, exits, stays] = helper.scenarios.map(name => `\`${name}\``)
  return [
    'A plugin whose `apply` starts a helper child process (`bench/plugins/ready-helper.mjs`), waits for its "ready" (about 300 ms of real time, '
      + `4 s timeout), registers a tool, and kills the helper when disposed, racing two synthetic tool plugins: the helper exits right after "ready" (${exits}) `
      + `or stays up until the plugin is disposed (${stays}). Wall clock, not CPU time (an idle wait costs no CPU, so the CPU clock would hide it): `
      + 'milliseconds per interleaving, medians over rounds that time the scenarios side by side; in process one interleaving a sample, '
      + 'on worker processes one exhaustive sweep a sample (its wall time over the interleavings it ran, two at a time).',
    '',
    ...table(['runner', 'no helper ms', 'helper exits ms', 'helper stays up ms', 'stays up / exits', 'rounds'], helper.runners.map(runner => [
      runner.runner, fixed(runner.noHelperMs, 0), fixed(runner.exitsMs, 0), fixed(runner.staysMs, 0), `${fixed(runner.ratio, 2)}×`, String(runner.rounds),
    ])),
    '',
    `${helper.helpersStarted} helper processes started; **${helper.helpersAlive} alive** after the section.`,
  ]
}

function testModeLines(figures: BenchFigures): string[] {
  if (figures.testMode === null) return ['Not run.']
  const { preload, preloadBoot, preloadNode20, tier } = figures.testMode
  return [
    ...[preload, preloadBoot, preloadNode20].filter(figure => figure !== null).map(figure => `The preload on Node ${figure.node}: \`${figure.command}\`, every process it starts with the preload following a row, against the same command without it `
      + `(wall clock, median of ${figure.rounds} rounds side by side): ${fixed(figure.withMs, 1)} ms against ${fixed(figure.withoutMs, 1)} ms, ${fixed(figure.ratio, 3)}×.`),
    '',
    tier === null ? 'The tier: not run (`--sections preload`).' : `The tier: ${tier.tier}, under \`loadrace test\` with its default plan against one plain run: `
      + `${fixed(tier.loadraceMs / 1000, 0)} s against ${fixed(tier.plainMs / 1000, 0)} s, ${fixed(tier.ratio, 2)}× — ${tier.runs} runs of the command and ${tier.reruns} reruns alone; `
      + `${tier.tests} tests: ${Object.entries(tier.verdicts).map(([verdict, count]) => `${count} ${verdict}`).join(', ')}.`,
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
    'A boot ratio is the median of its rounds\' own ratios (both sides timed in every round); in brackets, the middle half of'
      + ' those ratios (nearest-rank 25th to 75th percentile). A workers\' efficiency is the median of the same ratio within each round (`--workers 2` over two streams, each run twice'
      + ' in it); in brackets, the middle half of those ratios. A target inside that range is within what the rounds of this one run disagree by.',
    '',
    'Reported without a target:',
    '',
    ...reportedLines(reportedOf(figures)),
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
    '## The real application',
    '',
    ...realLines(figures.real),
    '',
    '## dsh 0.1.1-rc.2 from its repository',
    '',
    'The built workspace\'s unmodified `cordis.snapshot.yml` (its app entry mounts the whole agent spine and the ACP bridge) '
      + 'with the text-turn snapshot replayed, on the workspace\'s own cordis 4.0.1 and loader 1.0.2, in a Node 22 process: '
      + 'one scheduled interleaving against the same boot by the loader alone, each followed by the same ACP turn.',
    '',
    ...realLines(figures.workspace),
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
    '',
    '## A long-lived helper process',
    '',
    ...helperLines(figures),
    '',
    '## Your own suite under every load order',
    '',
    ...testModeLines(figures),
  ]
  return `${lines.join('\n')}\n`
}
