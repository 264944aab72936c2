import { Worker } from 'node:worker_threads'
import { loadScenario } from '../harness/scenario/load.ts'
import { explore } from '../harness/sweep/explore.ts'
import { inProcessRunner, type Runner } from '../harness/sweep/runner.ts'
import { workerPool } from '../harness/sweep/worker-pool.ts'
import { cpuNow } from './clock.ts'
import type { ScaleOutFigures, SweepRun } from './figures.ts'

/** A thread that spins on arithmetic for `workerData` ms and posts how many rounds it did. */
const SPIN = `
const { parentPort, workerData } = require('node:worker_threads')
const until = performance.now() + workerData
let rounds = 0, sink = 0
while (performance.now() < until) { for (let i = 0; i < 100000; i++) sink += Math.sqrt(i); rounds++ }
parentPort.postMessage(sink > 0 ? rounds : 0)
`

function spin(ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SPIN, { eval: true, workerData: ms })
    worker.once('message', (rounds: number) => {
      resolve(rounds)
      void worker.terminate()
    })
    worker.once('error', reject)
  })
}

/**
 * What the machine itself gives two threads right now: pure arithmetic on two
 * threads over the same on one (2.0 on two free cores). On a shared machine
 * this is the ceiling any two-worker sweep can reach.
 */
export async function machineScaling(ms = 1500): Promise<number> {
  const one = await spin(ms)
  const two = await Promise.all([spin(ms), spin(ms)])
  return (two[0] + two[1]) / one
}

/** One timed exhaustive sweep of the first `interleavings` schedules of `file` on `runner`. */
async function timedSweep(file: string, runner: Runner, interleavings: number): Promise<{ seconds: number, explored: number, coresUsed: number }> {
  const scenario = await loadScenario(file)
  const started = performance.now()
  const cpuStarted = cpuNow()
  const exploration = await explore(scenario, runner, { strategy: 'exhaustive', budget: interleavings, seed: '0' })
  const wall = performance.now() - started
  return { seconds: wall / 1000, explored: exploration.explored, coresUsed: (cpuNow() - cpuStarted) / wall }
}

/** The runner `loadrace sweep --workers <n>` uses (in process for one worker), or a pool of `n` threads. */
function runnerOf(workers: number, kind: SweepRun['runner']): Runner {
  return kind === 'in-process' ? inProcessRunner() : workerPool({ size: workers })
}

/**
 * The same exhaustive sweep (its first `interleavings` schedules) with one
 * and with two workers, wall clock. Each configuration runs `repeats` times,
 * interleaved with the others, after one untimed warm-up; its best run counts
 * (on a shared machine the best run is the one least disturbed).
 */
export async function measureScaleOut(file: string, options: { interleavings: number, repeats: number, onRun?: (run: SweepRun) => void }): Promise<ScaleOutFigures> {
  const configurations: { workers: number, runner: SweepRun['runner'] }[] = [
    { workers: 1, runner: 'in-process' },
    { workers: 1, runner: 'worker-pool' },
    { workers: 2, runner: 'worker-pool' },
  ]
  const runners = configurations.map(({ workers, runner }) => runnerOf(workers, runner))
  const best = configurations.map((): SweepRun | undefined => undefined)
  try {
    for (const runner of runners) await timedSweep(file, runner, Math.min(options.interleavings, 200))
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      for (const [index, configuration] of configurations.entries()) {
        const { seconds, explored, coresUsed } = await timedSweep(file, runners[index]!, options.interleavings)
        const run: SweepRun = { ...configuration, interleavings: explored, seconds, perSecond: explored / seconds, coresUsed }
        options.onRun?.(run)
        if (best[index] === undefined || run.perSecond > best[index]!.perSecond) best[index] = run
      }
    }
  } finally {
    await Promise.all(runners.map(runner => runner.close()))
  }
  const [inProcess, pool1, pool2] = best as SweepRun[]
  return {
    scenario: (await loadScenario(file)).name,
    runs: best as SweepRun[],
    scaling: pool2!.perSecond / inProcess!.perSecond,
    poolScaling: pool2!.perSecond / pool1!.perSecond,
    machineScaling: await machineScaling(),
  }
}
