/**
 * Runs one exhaustive sweep in this process and prints its resident-memory
 * growth as JSON on stdout. Started by `memory.ts` as
 * `node --expose-gc --import tsx bench/memory-child.ts <scenario file> <interleavings>`.
 */
import { loadScenario } from '../harness/scenario/load.ts'
import { inProcessRunner } from '../harness/sweep/runner.ts'
import { sweepScenario } from '../harness/sweep/sweep.ts'
import type { MemoryFigures } from './figures.ts'

const MB = 1024 * 1024

const collect = (globalThis as { gc?: () => void }).gc
if (collect === undefined) throw new Error('bench/memory-child.ts needs node --expose-gc')
process.setSourceMapsEnabled(false)

/** Two full collections, so that what is left is what is reachable. */
function settledMemory(): NodeJS.MemoryUsage {
  collect!()
  collect!()
  return process.memoryUsage()
}

const [file, count] = process.argv.slice(2)
if (file === undefined || count === undefined) throw new Error('usage: memory-child.ts <scenario file> <interleavings>')
const scenario = await loadScenario(file)
const interleavings = Number(count)
const options = { strategy: 'exhaustive' as const, seed: '0', runner: inProcessRunner(), workers: 1 }
// Warm up: load and compile every code path once before the baseline.
await sweepScenario(scenario, { ...options, budget: 50 })
const before = settledMemory()
const started = performance.now()
const report = await sweepScenario(scenario, { ...options, budget: interleavings })
const seconds = (performance.now() - started) / 1000
const after = settledMemory()
if (report.explored !== interleavings) throw new Error(`the sweep explored ${report.explored} of ${interleavings} interleavings`)
const figures: MemoryFigures = {
  scenario: scenario.name,
  interleavings: report.explored,
  rssBeforeMb: before.rss / MB,
  rssAfterMb: after.rss / MB,
  growthMb: (after.rss - before.rss) / MB,
  heapUsedGrowthMb: (after.heapUsed - before.heapUsed) / MB,
  seconds,
}
process.stdout.write(`${JSON.stringify(figures)}\n`)
// The report stays reachable until here, so its records count in the "after" figure.
if (report.verdict === 'error') process.exitCode = 1
