/**
 * A long-lived helper costs an interleaving no idle wait. A plugin whose
 * `apply` starts a helper child process (`bench/plugins/ready-helper.mjs`)
 * waits for its "ready" (about 300 ms of real time, under a 4 s timeout),
 * registers a tool, and kills the helper when disposed. The helper either
 * exits right after writing "ready" or stays up until the plugin is disposed;
 * both must cost about the same wall time per interleaving: an idle helper
 * that is up is no work in flight to wait for.
 *
 * This is about waiting, not computing: a wait costs the process no CPU, so
 * the CPU clock the other sections use would hide it. Every figure here is
 * wall clock, taken side by side in rotated rounds (so load from other
 * processes falls on both sides of a ratio alike), in process with
 * `runInterleaving`, and with two worker processes sweeping each scenario.
 * Each helper notes its pid; none may be alive after the section.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runInterleaving } from '../harness/runtime/interleaving.ts'
import { workerPool } from '../harness/runners/worker-pool.ts'
import { loadScenario } from '../harness/scenario/load.ts'
import type { Scenario } from '../harness/scenario/scenario.ts'
import { sweepScenario } from '../harness/sweep/sweep.ts'
import { referenceTarget } from '../harness/targets/reference.ts'
import { compareTasks, ratioOver, wallNow, type TaskCost, type TimedTask } from './clock.ts'
import type { HelperFigures, HelperRunnerFigures } from './figures.ts'

/** The environment variable naming the folder `ready-helper.mjs` notes its helpers' pids in (worker processes inherit it). */
export const HELPER_PIDS_VARIABLE = 'LOADRACE_BENCH_HELPER_PIDS'

/** The three scenarios, in the order the tasks are compared: without a helper, helper exits, helper stays up. */
export const HELPER_SCENARIOS = ['helper-none', 'helper-exits', 'helper-stays'] as const

const scenarioFile = (name: string) => fileURLToPath(new URL(`./scenarios/${name}.yml`, import.meta.url))

/** The schedules run in process: each plugin released first in turn (the declaration order rotated). */
function rotations(ids: readonly string[]): string[][] {
  return ids.map((_, start) => [...ids.slice(start), ...ids.slice(0, start)])
}

/**
 * One in-process interleaving per call, cycling through `scenario`'s
 * rotations; throws when one does not complete or the helper was not ready
 * (a run that waited out its timeout is measured, not refused: that is the
 * cost the section is there to show).
 */
function interleavingTask(scenario: Scenario): TimedTask {
  const schedules = rotations(scenario.plugins.map(spec => spec.id))
  let next = 0
  return {
    name: scenario.name,
    run: async () => {
      const result = await runInterleaving(scenario, referenceTarget, schedules[next++ % schedules.length]!)
      const helper = scenario.plugins.some(spec => spec.kind === 'module')
      if (result.projection.outcome !== 'completed' || (helper && !result.json.includes('"ready"'))) {
        throw new Error(`${scenario.name}: an interleaving ended ${result.projection.outcome}, or its helper was not ready`)
      }
    },
  }
}

/** Wall ms per interleaving of each scenario (`perCall` interleavings a call), and stays-up / exits. */
function runnerFigures(runner: string, costs: readonly TaskCost[], perCall: readonly number[]): HelperRunnerFigures {
  const [none, exits, stays] = costs.map((cost, index) => ({ cost, ms: cost.msPerCall / perCall[index]!, interleavings: cost.calls * perCall[index]! }))
  return {
    runner,
    noHelperMs: none!.ms,
    exitsMs: exits!.ms,
    staysMs: stays!.ms,
    ratio: ratioOver(stays!.cost, exits!.cost),
    interleavings: { noHelper: none!.interleavings, exits: exits!.interleavings, stays: stays!.interleavings },
    rounds: stays!.cost.perRound.length,
  }
}

/** Those of `pids` whose process still exists (a zombie counts). */
function living(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  })
}

/** Measures both runners; `onStep` hears what each one measured. */
export async function measureHelper(options: { quick: boolean, onStep?: (text: string) => void }): Promise<HelperFigures> {
  const pids = mkdtempSync(join(tmpdir(), 'loadrace-bench-helpers-'))
  const previous = process.env[HELPER_PIDS_VARIABLE]
  process.env[HELPER_PIDS_VARIABLE] = pids
  try {
    const scenarios = await Promise.all(HELPER_SCENARIOS.map(name => loadScenario(scenarioFile(name))))
    const inProcess = runnerFigures('in process', await compareTasks(scenarios.map(interleavingTask), {
      rounds: options.quick ? 2 : 8, msPerRound: 1_000, minSamples: options.quick ? 3 : 5, batch: 1, warmupCalls: 1, now: wallNow,
    }), [1, 1, 1])
    options.onStep?.(lineOf(inProcess))

    const pool = workerPool({ size: 2 })
    let workers: HelperRunnerFigures
    try {
      const sweep = (scenario: Scenario) => sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 2 }, { runner: pool })
      // One untimed sweep each: starts the workers, and checks the verdict and how many interleavings a sweep runs.
      const planned: number[] = []
      for (const scenario of scenarios) {
        const report = await sweep(scenario)
        if (report.passed !== true) throw new Error(`${scenario.name} on worker processes: verdict ${report.verdict}, outcome ${report.outcome}`)
        planned.push(report.planned)
      }
      workers = runnerFigures('2 worker processes', await compareTasks(scenarios.map(scenario => ({ name: scenario.name, run: () => sweep(scenario) })), {
        rounds: options.quick ? 1 : 3, msPerRound: 1_000, minSamples: options.quick ? 1 : 3, batch: 1, warmupCalls: 0, now: wallNow,
      }), planned)
      options.onStep?.(lineOf(workers))
    } finally {
      await pool.close()
    }
    const started = readdirSync(pids).map(Number)
    const alive = living(started)
    options.onStep?.(`${started.length} helper processes started, ${alive.length} alive after the section`)
    return { scenarios: [...HELPER_SCENARIOS], runners: [inProcess, workers], helpersStarted: started.length, helpersAlive: alive.length }
  } finally {
    if (previous === undefined) delete process.env[HELPER_PIDS_VARIABLE]
    else process.env[HELPER_PIDS_VARIABLE] = previous
    rmSync(pids, { recursive: true, force: true })
  }
}

/** One runner's figures in a line of progress. */
export function lineOf(figures: HelperRunnerFigures): string {
  return `${figures.runner}: no helper ${figures.noHelperMs.toFixed(0)} ms, helper exits ${figures.exitsMs.toFixed(0)} ms, `
    + `helper stays up ${figures.staysMs.toFixed(0)} ms per interleaving (wall); stays up / exits ${figures.ratio.toFixed(2)}×`
}
