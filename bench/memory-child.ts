/**
 * Runs one sweep in this process, one worker, and prints its resident-memory
 * growth as JSON on stdout, with a progress line on stderr every tenth of the
 * sweep (live heap and RSS after forced collections). Started by `memory.ts`
 * as `node --expose-gc --import tsx bench/memory-child.ts <job as JSON>`.
 */
import { loadScenario } from '../harness/scenario/load.ts'
import { inProcessRunner } from '../harness/runners/runner.ts'
import { sweepScenario } from '../harness/sweep/sweep.ts'
import type { MemoryCheckpoint, MemoryFigures } from './figures.ts'
import type { MemoryJob } from './memory.ts'

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

function checkpoint(interleavings: number): MemoryCheckpoint {
  const { heapUsed, rss } = settledMemory()
  return { interleavings, heapUsedMb: heapUsed / MB, rssMb: rss / MB }
}

const job = JSON.parse(process.argv[2] ?? 'null') as MemoryJob | null
if (job === null) throw new Error('usage: memory-child.ts <job as JSON>')
const loaded = await loadScenario(job.file)
// The sweep's own budget decides: a scenario's `budget:` (the real application caps itself at its cover rows) does not.
const scenario = { ...loaded, budget: undefined }
const settings = { strategy: job.strategy, seed: '0', workers: 1 }
const runner = inProcessRunner()
// Warm up: load and compile every code path once before the baseline.
await sweepScenario(scenario, { ...settings, budget: job.warmup }, { runner })
const before = settledMemory()
const checkpoints = [checkpoint(0)]
const step = Math.max(1, Math.floor(job.interleavings / 10))
const started = performance.now()
const report = await sweepScenario(scenario, { ...settings, budget: job.interleavings }, { runner, onProgress: (_scenario, done, planned) => {
    if (done % step !== 0 && done !== planned) return
    const point = checkpoint(done)
    checkpoints.push(point)
    process.stderr.write(`progress ${done} ${planned} ${point.heapUsedMb.toFixed(1)} ${point.rssMb.toFixed(1)}\n`)
  } })
const seconds = (performance.now() - started) / 1000
const after = settledMemory()
if (report.planned !== job.interleavings) throw new Error(`the sweep ran ${report.planned} of ${job.interleavings} interleavings`)
const figures: MemoryFigures = {
  scenario: scenario.name,
  strategy: job.strategy,
  interleavings: report.planned,
  rssBeforeMb: before.rss / MB,
  rssAfterMb: after.rss / MB,
  growthMb: (after.rss - before.rss) / MB,
  heapUsedGrowthMb: (after.heapUsed - before.heapUsed) / MB,
  checkpoints,
  seconds,
}
process.stdout.write(`${JSON.stringify(figures)}\n`)
// The report stays reachable until here, so its records count in the "after" figure.
if (report.verdict === 'error') process.exitCode = 1
