import { describe, expect, it } from 'vitest'
import type { BenchFigures } from '../../bench/figures.ts'
import { TARGET_IDS } from '../../bench/figures.ts'
import { renderBenchJson, renderBenchMarkdown } from '../../bench/report.ts'
import { tableCells } from '../harness/markdown-check.ts'

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
        { name: 'floor', what: 'plain boot', msPerRun: 2, ratio: 1 },
        { name: 'harness', what: 'one interleaving', msPerRun: 2.5, ratio: 1.25 },
      ],
      ratio: 1.25,
      perSecond: 300,
      perCpuSecond: 400,
    },
    scaleOut: {
      scenario: 'eight-tools',
      runs: [
        { workers: 1, runner: 'in-process', interleavings: 100, seconds: 1, perSecond: 100, coresUsed: 1 },
        { workers: 2, runner: 'worker-pool', interleavings: 100, seconds: 0.8, perSecond: 125, coresUsed: 1.6 },
      ],
      scaling: 1.25,
      poolScaling: 1.3,
      machineScaling: 1.5,
    },
    memory: { scenario: 'eight-tools', interleavings: 40_320, rssBeforeMb: 100, rssAfterMb: 130, growthMb: 30, heapUsedGrowthMb: 20, seconds: 200 },
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
    coverage: [
      { plugins: 10, t2: 2, t3: 14, factorial: '3628800' },
      { plugins: 16, t2: 2, t3: 30, factorial: '20922789888000' },
    ],
    timers: {
      rows: [
        { ms: 0, runs: 10, distinctResults: 1, verdicts: ['divergent'] },
        { ms: 3, runs: 10, distinctResults: 2, verdicts: ['divergent', 'uncontrolled'] },
      ],
      stable: false,
    },
  }
}

describe('reports/bench.json', () => {
  it('holds the raw figures and one target entry per target id, in order, with exactly the contract fields', () => {
    const report = JSON.parse(renderBenchJson(figures())) as Record<string, unknown> & { targets: Record<string, unknown>[] }
    expect(report.machine).toEqual(figures().machine)
    expect(report.power).toEqual(figures().power)
    expect(report.targets.map(target => target.id)).toEqual([...TARGET_IDS])
    for (const target of report.targets) {
      expect(Object.keys(target).sort()).toEqual(['id', 'measured', 'met', 'target', 'unit'])
      expect(typeof target.unit).toBe('string')
      expect(typeof target.met).toBe('boolean')
    }
  })

  it('judges each target from the figures (worst size, lower of two bugs, bounds both ways)', () => {
    const targets = Object.fromEntries((JSON.parse(renderBenchJson(figures())) as { targets: { id: string, measured: number | null, target: number, met: boolean }[] })
      .targets.map(target => [target.id, target]))
    expect(targets['assembly-ratio']).toMatchObject({ measured: 1.4, target: 1.5, met: true })
    expect(targets['assembly-ratio-toolorder']).toMatchObject({ measured: 2, met: false })
    expect(targets['interleaving-overhead']).toMatchObject({ measured: 1.25, target: 1.3, met: true })
    expect(targets['workers-scaling']).toMatchObject({ measured: 1.25, target: 1.7, met: false })
    expect(targets['sweep-memory-growth']).toMatchObject({ measured: 30, target: 50, met: true })
    expect(targets['cover-t3-n10']).toMatchObject({ measured: 14, target: 16, met: true })
    expect(targets['cover-t3-n16']).toMatchObject({ measured: 30, target: 24, met: false })
    expect(targets['cover-detects-depth2']).toMatchObject({ measured: 100, target: 100, met: true })
    expect(targets['cover-detects-depth3']).toMatchObject({ measured: 75, met: false })
    expect(targets['auto-detects-both']).toMatchObject({ measured: 100, met: true })
    expect(targets['timer-verdicts-stable']).toMatchObject({ measured: 50, target: 100, met: false })
  })

  it('reports a section that did not run as measured null and not met', () => {
    const report = JSON.parse(renderBenchJson({ ...figures(), scaleOut: null, power: null })) as { targets: { id: string, measured: unknown, met: boolean }[] }
    for (const id of ['workers-scaling', 'cover-detects-depth2', 'cover-detects-depth3', 'auto-detects-both']) {
      expect(report.targets.find(target => target.id === id)).toMatchObject({ measured: null, met: false })
    }
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
    expect(rows.find(cells => cells[0] === '`cover-t3-n16`')).toEqual(['`cover-t3-n16`', '30.00', '≤ 24', 'interleavings', '**no**'])
    expect(rows.find(cells => cells[0] === '`workers-scaling`')?.slice(1, 3)).toEqual(['1.25', '≥ 1.7'])
  })

  it('renders the headline bug-finding table, with budget misses as ">budget"', () => {
    expect(rows).toContainEqual(['strategy', 'bug', 'detected', 'median', 'p95', 'max', 'planned'])
    expect(rows).toContainEqual(['cover (t=3)', 'depth-3', '3/4 (75.0 %)', '3', '>100', '>100', '16'])
    expect(rows).toContainEqual(['fast-check fc.scheduler', 'depth-2', '4/4 (100.0 %)', '2', '3', '3', '—'])
  })

  it('renders the coverage table and the machine', () => {
    expect(rows).toContainEqual(['16', '2', '30', '20922789888000'])
    expect(markdown).toContain('Test CPU 9000, 2 cores, Node v20.0.0')
  })
})
