import { describe, expect, it } from 'vitest'
import type { BenchFigures, MemoryFigures, ScaleOutFigures } from '../../bench/figures.ts'
import { REPORTED_IDS, TARGET_IDS } from '../../bench/figures.ts'
import { renderBenchJson, renderBenchMarkdown } from '../../bench/report.ts'
import { scaleOutFigures } from '../../bench/scale-out.ts'
import { tableCells } from '../support/markdown.ts'

/** A scale-out of one round that gave these throughputs: one stream, two streams, two worker streams, `--workers 2`. */
function scaleOut(scenario: string, perSecond: [number, number, number, number]): ScaleOutFigures {
  const [one, two, twoWorkers, workers2] = perSecond
  return scaleOutFigures(scenario, [[
    { configuration: 'one stream', processes: 1, interleavings: 100, seconds: 100 / one, perSecond: one, coresUsed: 1.2, cpuMsPerInterleaving: 12 },
    { configuration: 'two streams', processes: 2, interleavings: 180, seconds: 180 / two, perSecond: two, coresUsed: 1.9, cpuMsPerInterleaving: 10.5 },
    { configuration: 'two worker streams', processes: 2, interleavings: 170, seconds: 170 / twoWorkers, perSecond: twoWorkers, coresUsed: 1.9, cpuMsPerInterleaving: 11 },
    { configuration: '--workers 2', processes: 2, interleavings: 100, seconds: 100 / workers2, perSecond: workers2, coresUsed: 1.9, cpuMsPerInterleaving: 11.25 },
  ]])
}

function memory(scenario: string, growthMb: number, heapUsedGrowthMb: number): MemoryFigures {
  return {
    scenario,
    strategy: 'auto',
    interleavings: 1_000,
    rssBeforeMb: 100,
    rssAfterMb: 100 + growthMb,
    growthMb,
    heapUsedGrowthMb,
    checkpoints: [{ interleavings: 0, heapUsedMb: 22.5, rssMb: 150 }, { interleavings: 1_000, heapUsedMb: 22.5 + heapUsedGrowthMb, rssMb: 150 + growthMb }],
    seconds: 40,
  }
}

/** A tiny synthetic run: every section present, with figures chosen to meet some targets and miss others. */
function figures(): BenchFigures {
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    wallSeconds: 321,
    machine: { cpuModel: 'Test CPU 9000', cores: 2, node: 'v20.0.0', platform: 'linux-x64', loadAverage: [0.5, 0.25, 0.125] },
    assembly: [
      { tools: 10, toolOrder: false, floorUsPerTool: 3, assembleUsPerTool: 3.6, ratio: 1.2 },
      { tools: 10_000, toolOrder: false, floorUsPerTool: 3, assembleUsPerTool: 4.2, ratio: 1.4 },
      { tools: 10, toolOrder: true, floorUsPerTool: 3, assembleUsPerTool: 6, ratio: 2 },
    ],
    interleaving: {
      scenario: 'eight-tools',
      plugins: 8,
      variants: [
        { name: 'floor', what: 'plain boot', msPerRun: 2, ratio: 1, stackTraceLimit: 10 },
        { name: 'real loader', what: 'loader boot', msPerRun: 4, ratio: 2, stackTraceLimit: 10 },
        { name: 'real loader, one by one', what: 'loader boot, one at a time', msPerRun: 4.4, ratio: 2.2, stackTraceLimit: 10 },
        { name: 'harness', what: 'one interleaving', msPerRun: 5.6, ratio: 2.8, stackTraceLimit: 10 },
      ],
      ratio: 2.8,
      loaderRatio: 1.4,
      owners: [
        { owner: 'cordis (contexts, fibers, services, events)', loadrace: false, share: 0.55, msPerRun: 3.08 },
        { owner: 'loadrace: projection and hash', loadrace: true, share: 0.025, msPerRun: 0.14 },
      ],
      captures: { harness: 233, loader: 238.5, loadrace: { 'tools harness/targets/reference.ts Object.registerTool': 8 } },
      perSecond: 150,
      perCpuSecond: 178,
    },
    real: {
      scenario: 'acp-agent-tools',
      file: 'apps/acp-agent/tools.yml',
      target: 'dsh',
      entries: 29,
      projectionChars: 77_099,
      variants: [
        { name: 'real loader', what: 'the cordis.yml through cordis:include', msPerRun: 22, ratio: 1, stackTraceLimit: 10 },
        { name: 'real loader, one by one', what: 'one at a time', msPerRun: 24.2, ratio: 1.1, stackTraceLimit: 10 },
        { name: 'harness', what: 'one scheduled interleaving', msPerRun: 26.4, ratio: 1.2, stackTraceLimit: 10 },
      ],
      overhead: 1.2,
      throughput: {
        interleavings: 100,
        perCpuSecond: 40,
        phases: [
          { phase: 'boot', what: 'releases', ms: 14 },
          { phase: 'projection', what: 'bytes and hash', ms: 0.75 },
        ],
        owners: [
          { owner: 'cordis (contexts, fibers, services, events)', loadrace: false, share: 0.45, msPerRun: 11.25 },
          { owner: 'loadrace: scheduler (releases, quiescence, sandbox, attribution)', loadrace: true, share: 0.07, msPerRun: 1.75 },
          { owner: 'loadrace: projection and hash', loadrace: true, share: 0.03, msPerRun: 0.75 },
        ],
        largestOwn: 'loadrace: scheduler (releases, quiescence, sandbox, attribution)',
      },
    },
    workspace: {
      scenario: 'dsh-text-turn',
      file: '/tmp/dsh-text-turn.yml',
      target: 'dsh',
      entries: 30,
      projectionChars: 180_000,
      variants: [
        { name: 'real loader', what: 'the cordis.yml through cordis:include', msPerRun: 200, ratio: 1, stackTraceLimit: 10 },
        { name: 'harness', what: 'one scheduled interleaving', msPerRun: 280, ratio: 1.4, stackTraceLimit: 10 },
      ],
      overhead: 1.4,
      throughput: {
        interleavings: 20,
        perCpuSecond: 3.5,
        phases: [{ phase: 'turn', what: 'the ACP steps', ms: 90 }],
        owners: [{ owner: 'the system under test (dsh packages)', loadrace: false, share: 0.5, msPerRun: 140 }],
        largestOwn: 'loadrace: scheduler (releases, quiescence, sandbox, attribution)',
      },
    },
    scaleOut: { synthetic: scaleOut('eight-tools', [100, 180, 160, 150]), real: scaleOut('acp-agent-tools', [40, 76, 75, 74]), machineScaling: 1.8 },
    memory: { synthetic: memory('eight-tools', 60, 2), real: memory('acp-agent-tools', 30, 1.5) },
    power: {
      budget: 100,
      seeds: 4,
      bugs: [{ id: 'depth-2', scenario: 'planted-depth2', plugins: 10, what: 'shared name' }],
      rows: [
        { strategy: 'cover (t=3)', bug: 'depth-2', trials: 4, detected: 4, rate: 1, median: 2, p95: 2, max: 2, planned: { min: 14, max: 16 } },
        { strategy: 'cover (t=3)', bug: 'depth-3', trials: 4, detected: 3, rate: 0.75, median: 3, p95: null, max: null, planned: { min: 16, max: 16 } },
        { strategy: 'auto', bug: 'depth-2', trials: 4, detected: 4, rate: 1, median: 2, p95: 2, max: 2, planned: { min: 100, max: 100 } },
        { strategy: 'auto', bug: 'depth-3', trials: 4, detected: 4, rate: 1, median: 2, p95: 5, max: 5, planned: { min: 100, max: 100 } },
        { strategy: 'fast-check fc.scheduler', bug: 'depth-2', trials: 4, detected: 4, rate: 1, median: 2, p95: 3, max: 3, planned: null },
      ],
      seconds: 60,
    },
    coverage: {
      sizes: [
        { plugins: 10, t2: 2, t3: 14, factorial: '3628800' },
        { plugins: 16, t2: 2, t3: 30, factorial: '20922789888000' },
      ],
      discovered: [
        { scenario: 'acp-agent-tools', declared: 29, operations: 29, chains: 29, t3: 23, planned: 23, factorial: '8841761993739701954543616000000', size: '8841761993739701954543616000000' },
        { scenario: 'timers-ten', declared: 10, operations: 15, chains: 10, t3: 18, planned: 18, factorial: '1307674368000', size: '40864824000' },
      ],
    },
    timers: {
      rows: [
        { ms: 0, runs: 10, distinctResults: 1, verdicts: ['divergent'] },
        { ms: 3, runs: 10, distinctResults: 2, verdicts: ['divergent', 'uncontrolled'] },
      ],
      stable: false,
    },
    helper: {
      scenarios: ['helper-none', 'helper-exits', 'helper-stays'],
      runners: [
        { runner: 'in process', noHelperMs: 40, exitsMs: 750, staysMs: 780, ratio: 1.04, interleavings: { noHelper: 400, exits: 40, stays: 40 }, rounds: 8 },
        { runner: '2 worker processes', noHelperMs: 60, exitsMs: 400, staysMs: 2_500, ratio: 6.25, interleavings: { noHelper: 120, exits: 54, stays: 54 }, rounds: 3 },
      ],
      helpersStarted: 120,
      helpersAlive: 1,
    },
    testMode: {
      preload: { command: 'vitest run -t one', node: 'v22.23.5', withoutMs: 5_000, withMs: 5_150, ratio: 1.03, rounds: 7 },
      preloadBoot: { command: 'node app.mjs', node: 'v22.23.5', withoutMs: 100, withMs: 110, ratio: 1.1, rounds: 9 },
      preloadNode20: { command: 'node app.mjs', node: 'v20.20.2', withoutMs: 100, withMs: 140, ratio: 1.4, rounds: 9 },
      tier: { tier: 'a suite', plainMs: 60_000, loadraceMs: 200_000, ratio: 200 / 60, runs: 3, reruns: 12, tests: 10, verdicts: { holds: 9, 'pins-one': 1 } },
    },
  }
}

describe('reports/bench.json', () => {
  it('holds the raw figures and one target entry per target id, in order, with exactly the contract fields', () => {
    const report = JSON.parse(renderBenchJson(figures())) as Record<string, unknown> & { targets: Record<string, unknown>[] }
    expect(report.machine).toEqual(figures().machine)
    expect(report.power).toEqual(figures().power)
    expect(report.real).toEqual(figures().real)
    expect(report.helper).toEqual(figures().helper)
    expect(report.targets.map(target => target.id)).toEqual([...TARGET_IDS])
    for (const target of report.targets) {
      // A ratio of two boots states the Error.stackTraceLimit each side was timed under; an efficiency measured in rounds, their middle half.
      const boots = ['interleaving-overhead-loader', 'real-interleaving-overhead', 'workspace-interleaving-overhead'].includes(target.id as string)
      const inRounds = ['workers-efficiency', 'real-workers-efficiency'].includes(target.id as string)
      expect(Object.keys(target).sort()).toEqual(['id', 'measured', 'met', ...inRounds ? ['rounds'] : [], ...boots ? ['stackTraceLimit'] : [], 'target', 'unit'])
      expect(typeof target.unit).toBe('string')
      expect(typeof target.met).toBe('boolean')
    }
  })

  it('lists the real-application and ceiling targets the issue names, and the figures reported without a target', () => {
    const report = JSON.parse(renderBenchJson(figures())) as { targets: { id: string }[], reported: Record<string, unknown>[] }
    for (const id of ['interleaving-overhead-loader', 'workers-efficiency', 'real-interleaving-overhead', 'real-memory-growth', 'real-workers-efficiency']) {
      expect(report.targets.map(target => target.id)).toContain(id)
    }
    // The plain-boot overhead and the plain scaling are reported, not judged.
    expect(report.targets.map(target => target.id)).not.toContain('interleaving-overhead')
    expect(report.targets.map(target => target.id)).not.toContain('workers-scaling')
    expect(report.reported.map(figure => figure.id)).toEqual([...REPORTED_IDS])
    for (const figure of report.reported) expect(Object.keys(figure).sort()).toEqual(['id', 'measured', 'unit'])
  })

  it('judges each target from the figures (worst size, lower of two bugs, bounds both ways)', () => {
    const targets = Object.fromEntries((JSON.parse(renderBenchJson(figures())) as { targets: { id: string, measured: number | null, target: number, met: boolean }[] })
      .targets.map(target => [target.id, target]))
    expect(targets['assembly-ratio']).toMatchObject({ measured: 1.4, target: 1.5, met: true })
    expect(targets['assembly-ratio-toolorder']).toMatchObject({ measured: 2, met: false })
    expect(targets['interleaving-overhead-loader']).toMatchObject({ measured: 1.4, target: 1.3, met: false })
    expect(targets['real-interleaving-overhead']).toMatchObject({ measured: 1.2, target: 1.3, met: true })
    expect(targets['workers-efficiency']?.measured).toBeCloseTo(150 / 180)
    expect(targets['workers-efficiency']).toMatchObject({ target: 0.95, met: false })
    expect(targets['real-workers-efficiency']?.measured).toBeCloseTo(74 / 76)
    expect(targets['real-workers-efficiency']).toMatchObject({ target: 0.95, met: true })
    expect(targets['sweep-memory-growth']).toMatchObject({ measured: 60, target: 50, met: false })
    expect(targets['real-memory-growth']).toMatchObject({ measured: 30, target: 100, met: true })
    expect(targets['cover-t3-n10']).toMatchObject({ measured: 14, target: 16, met: true })
    expect(targets['cover-t3-n16']).toMatchObject({ measured: 30, target: 24, met: false })
    expect(targets['cover-detects-depth2']).toMatchObject({ measured: 100, target: 100, met: true })
    expect(targets['cover-detects-depth3']).toMatchObject({ measured: 75, met: false })
    expect(targets['auto-detects-both']).toMatchObject({ measured: 100, met: true })
    expect(targets['timer-verdicts-stable']).toMatchObject({ measured: 50, target: 100, met: false })
    expect(targets['helper-wait-in-process']).toMatchObject({ measured: 1.04, target: 1.5, met: true })
    expect(targets['helper-wait-workers']).toMatchObject({ measured: 6.25, target: 1.5, met: false })
    expect(targets['helper-processes-left']).toMatchObject({ measured: 1, target: 0, met: false })
    const none = (JSON.parse(renderBenchJson({ ...figures(), helper: { ...figures().helper!, helpersAlive: 0 } })) as { targets: { id: string, met: boolean }[] }).targets
    expect(none.find(target => target.id === 'helper-processes-left')).toMatchObject({ measured: 0, met: true })
    expect(targets['test-preload-overhead']).toMatchObject({ measured: 1.03, target: 1.05, met: true })
    expect(targets['test-tier-overhead']?.measured).toBeCloseTo(200 / 60)
    expect(targets['test-tier-overhead']).toMatchObject({ target: 3, met: false })
  })

  it('states the Error.stackTraceLimit of both sides of each boot ratio, and judges no ratio whose sides differ in it', () => {
    const targets = (base: ReturnType<typeof figures>) => Object.fromEntries((JSON.parse(renderBenchJson(base)) as { targets: { id: string, met: boolean, stackTraceLimit?: unknown }[] })
      .targets.map(target => [target.id, target]))
    expect(targets(figures())['real-interleaving-overhead']).toMatchObject({ met: true, stackTraceLimit: { measured: 10, reference: 10 } })
    expect(targets(figures())['interleaving-overhead-loader']).toMatchObject({ stackTraceLimit: { measured: 10, reference: 10 } })
    // The real loader timed with stack captures off (limit 0): flattered, so the ratio is not met however low.
    const real = figures().real!
    const flattered = { ...figures(), real: { ...real, variants: real.variants.map(variant => variant.name === 'real loader' ? { ...variant, stackTraceLimit: 0 } : variant) } }
    expect(targets(flattered)['real-interleaving-overhead']).toMatchObject({ measured: 1.2, met: false, stackTraceLimit: { measured: 10, reference: 0 } })
    // A side under which the limit changed is not comparable either.
    const varied = { ...figures(), real: { ...real, variants: real.variants.map(variant => variant.name === 'harness' ? { ...variant, stackTraceLimit: null } : variant) } }
    expect(targets(varied)['real-interleaving-overhead']).toMatchObject({ met: false, stackTraceLimit: { measured: null, reference: 10 } })
    expect(renderBenchMarkdown(flattered)).toContain('| `real-interleaving-overhead` | 1.20 | ≤ 1.3 | × the real loader (imports at once) | 10 / 0 | **no** |')
  })

  it('states the middle half of a boot ratio\'s per-round ratios beside its median, when both sides were timed round by round', () => {
    const real = figures().real!
    // Harness over real loader per round: 1.25, 1.5, 1.75, 2 (any order): nearest-rank 25th and 75th percentiles 1.25 and 1.75.
    const perRound: Record<string, number[]> = { 'real loader': [20, 20, 20, 20], 'harness': [35, 25, 40, 30] }
    const timed = { ...figures(), real: { ...real, variants: real.variants.map(variant => ({ ...variant, ...perRound[variant.name] === undefined ? {} : { perRound: perRound[variant.name] } })) } }
    const target = (JSON.parse(renderBenchJson(timed)) as { targets: { id: string, rounds?: unknown }[] }).targets.find(row => row.id === 'real-interleaving-overhead')
    expect(target?.rounds).toEqual({ low: 1.25, high: 1.75, count: 4 })
    expect(renderBenchMarkdown(timed)).toContain('| `real-interleaving-overhead` | 1.20 (1.25–1.75) | ≤ 1.3 |')
    // Without rounds on both sides (an older report, or one side only), no range is claimed.
    const oneSide = { ...figures(), real: { ...real, variants: real.variants.map(variant => variant.name === 'harness' ? { ...variant, perRound: [1, 2] } : variant) } }
    expect((JSON.parse(renderBenchJson(oneSide)) as { targets: { id: string, rounds?: unknown }[] }).targets.find(row => row.id === 'real-interleaving-overhead')).not.toHaveProperty('rounds')
    expect(renderBenchMarkdown(figures())).toContain('| `real-interleaving-overhead` | 1.20 | ≤ 1.3 |')
  })

  it('reads the reported figures from their sections', () => {
    const reported = Object.fromEntries((JSON.parse(renderBenchJson(figures())) as { reported: { id: string, measured: number | null }[] })
      .reported.map(figure => [figure.id, figure.measured]))
    expect(reported['interleaving-overhead']).toBe(2.8)
    expect(reported['workers-scaling']).toBeCloseTo(1.5)
    expect(reported['worker-process-efficiency']).toBeCloseTo(160 / 180)
    expect(reported['pool-efficiency']).toBeCloseTo(150 / 160)
    expect(reported['real-throughput']).toBe(40)
    expect(reported['real-heap-growth']).toBe(1.5)
    expect(reported['test-preload-overhead-node20']).toBe(1.4)
    expect(reported['test-preload-boot-overhead']).toBe(1.1)
    expect(reported['test-tier-runs']).toBe(15)
    expect(reported['cover-t3-real']).toBe(23)
  })

  it('reports a section that did not run as measured null and not met', () => {
    const report = JSON.parse(renderBenchJson({ ...figures(), scaleOut: null, power: null, real: null, memory: null, helper: null })) as {
      targets: { id: string, measured: unknown, met: boolean }[]
      reported: { id: string, measured: unknown }[]
    }
    for (const id of ['workers-efficiency', 'real-workers-efficiency', 'real-interleaving-overhead', 'real-memory-growth', 'cover-detects-depth2', 'auto-detects-both', 'helper-wait-in-process', 'helper-wait-workers', 'helper-processes-left']) {
      expect(report.targets.find(target => target.id === id)).toMatchObject({ measured: null, met: false })
    }
    for (const id of ['workers-scaling', 'worker-process-efficiency', 'pool-efficiency', 'real-throughput', 'real-heap-growth']) {
      expect(report.reported.find(figure => figure.id === id)).toMatchObject({ measured: null })
    }
  })

  it('with only the preload measured (--sections preload), judges the preload and reports the tier as not run', () => {
    const base = figures()
    const preloadOnly = { ...base, testMode: { ...base.testMode!, tier: null } }
    const report = JSON.parse(renderBenchJson(preloadOnly)) as { targets: { id: string, measured: unknown, met: boolean }[], reported: { id: string, measured: unknown }[] }
    expect(report.targets.find(target => target.id === 'test-preload-overhead')).toMatchObject({ measured: 1.03, met: true })
    expect(report.targets.find(target => target.id === 'test-tier-overhead')).toMatchObject({ measured: null, met: false })
    expect(report.reported.find(figure => figure.id === 'test-tier-runs')).toMatchObject({ measured: null })
    expect(renderBenchMarkdown(preloadOnly)).toContain('The tier: not run (`--sections preload`).')
  })
})

describe('reports/bench.md', () => {
  const markdown = renderBenchMarkdown(figures())
  const rows = markdown.split('\n').filter(line => line.startsWith('|')).map(tableCells)

  it('puts every target beside its measured value and bound', () => {
    for (const id of TARGET_IDS) {
      const row = rows.find(cells => cells[0] === `\`${id}\``)
      expect(row, id).toBeDefined()
    }
    expect(rows.find(cells => cells[0] === '`cover-t3-n16`')).toEqual(['`cover-t3-n16`', '30.00', '≤ 24', 'interleavings', '—', '**no**'])
    expect(rows.find(cells => cells[0] === '`real-workers-efficiency`')?.slice(1, 3)).toEqual(['0.97 (0.97–0.97)', '≥ 0.95'])
    expect(rows.find(cells => cells[0] === '`interleaving-overhead-loader`')?.slice(1)).toEqual(['1.40', '≤ 1.3', '× the real loader (imports at once)', '10 / 10', '**no**'])
  })

  it('puts every reported figure in a table of its own, without a bound', () => {
    for (const id of REPORTED_IDS) expect(rows.find(cells => cells[0] === `\`${id}\``)?.length, id).toBe(3)
    expect(rows.find(cells => cells[0] === '`real-throughput`')).toEqual(['`real-throughput`', '40.00', 'interleavings per CPU second (real application)'])
  })

  it('states the stack captures of both sides and the harness\'s own reads among them', () => {
    expect(markdown).toContain('**233.0** in the harness interleaving, 238.5 in the real loader\'s boot. Of the harness\'s, loadrace\'s own reads: 8.0 × `tools harness/targets/reference.ts Object.registerTool`.')
  })

  it('renders the real application against the real loader, its phases and owners', () => {
    expect(rows).toContainEqual(['harness', 'one scheduled interleaving', '26.40', '1.20×', '10'])
    expect(rows).toContainEqual(['projection', 'bytes and hash', '0.75'])
    expect(rows).toContainEqual(['total', '', '14.75'])
    expect(rows).toContainEqual(['loadrace: projection and hash', 'yes', '3.0 %', '0.75'])
    expect(rows).toContainEqual(['loadrace: projection and hash', 'yes', '2.5 %', '0.14'])
    expect(markdown).toContain('**40.0 interleavings per CPU second**.')
    expect(markdown).toContain('The largest part that is loadrace\'s own: loadrace: scheduler')
    // The dsh 0.1.1-rc.2 section, and its target (1.40 against 1.3: missed).
    expect(markdown).toContain('## dsh 0.1.1-rc.2 from its repository')
    expect(markdown).toContain('**3.5 interleavings per CPU second**.')
    expect(rows.find(cells => cells[0] === '`workspace-interleaving-overhead`')?.[1]).toBe('1.40')
  })

  it('renders both scale-outs against their ceilings, and both memory sweeps with their live heap', () => {
    expect(rows).toContainEqual(['two streams', '2', '180', '1.00', '180.0', '1.90', '10.50'])
    expect(markdown).toContain('`--workers 2` / the two-stream ceiling: **0.833**; `--workers 2` / one stream: 1.50×; two streams / one stream (the ceiling\'s own scaling): 1.80×. '
      + 'Split: two worker streams / two streams (running in worker processes) 0.889; `--workers 2` / two worker streams (one pool for both workers) 0.938.')
    expect(markdown).toContain('`--workers 2` / the two-stream ceiling: **0.974**')
    expect(markdown).toContain('growth **30.0 MB**; live heap growth 1.5 MB')
    expect(markdown).toContain('live heap every tenth of the sweep: 22.5 → 24.0 MB')
  })

  it('renders the headline bug-finding table, with budget misses as ">budget"', () => {
    expect(rows).toContainEqual(['strategy', 'bug', 'detected', 'median', 'p95', 'max', 'planned'])
    expect(rows).toContainEqual(['cover (t=3)', 'depth-3', '3/4 (75.0 %)', '3', '>100', '>100', '16'])
    expect(rows).toContainEqual(['fast-check fc.scheduler', 'depth-2', '4/4 (100.0 %)', '2', '3', '3', '—'])
  })

  it('renders the long-lived helper on both runners on the wall clock, and the helpers left alive', () => {
    const section = markdown.slice(markdown.indexOf('## A long-lived helper process'), markdown.indexOf('## Your own suite'))
    expect(section).toContain('Wall clock, not CPU time')
    expect(section).toContain('(`helper-exits`)')
    expect(section).toContain('(`helper-stays`)')
    expect(rows).toContainEqual(['runner', 'no helper ms', 'helper exits ms', 'helper stays up ms', 'stays up / exits', 'rounds'])
    expect(rows).toContainEqual(['in process', '40', '750', '780', '1.04×', '8'])
    expect(rows).toContainEqual(['2 worker processes', '60', '400', '2500', '6.25×', '3'])
    expect(section).toContain('120 helper processes started; **1 alive** after the section.')
    expect(rows.find(cells => cells[0] === '`helper-wait-workers`')?.slice(1, 3)).toEqual(['6.25', '≤ 1.5'])
    expect(rows.find(cells => cells[0] === '`helper-processes-left`')?.slice(1, 3)).toEqual(['1.00', '≤ 0'])
    const notRun = renderBenchMarkdown({ ...figures(), helper: null })
    expect(notRun.slice(notRun.indexOf('## A long-lived helper process'), notRun.indexOf('## Your own suite'))).toBe('## A long-lived helper process\n\nNot run.\n\n')
  })

  it('renders the coverage tables (with the discovered spaces) and the machine', () => {
    expect(rows).toContainEqual(['16', '2', '30', '20922789888000'])
    expect(rows).toContainEqual(['`timers-ten`', '10', '15', '10', '18', '18', '1307674368000', '40864824000'])
    expect(markdown).toContain('Test CPU 9000, 2 cores, Node v20.0.0')
  })
})
