import { loadScenario } from '../harness/scenario/load.ts'
import { inProcessRunner } from '../harness/runners/runner.ts'
import { sweepScenario } from '../harness/sweep/sweep.ts'
import type { TimerStabilityFigures } from './figures.ts'

/** The delays a plugin awaits before registering, each in its own bench scenario (`bench/scenarios/await-<ms>-ms.yml`). */
export const AWAIT_DELAYS_MS = [0, 1, 3, 20] as const

/**
 * The same sweep of a plugin that awaits a timer, run `runs` times per delay:
 * the verdict and the set of outputs must be the same on every run, since the
 * timer fires only when the scheduler releases it.
 */
export async function measureTimerStability(runs: number, onDelay?: (ms: number, distinct: number) => void): Promise<TimerStabilityFigures> {
  const rows: TimerStabilityFigures['rows'] = []
  for (const ms of AWAIT_DELAYS_MS) {
    const scenario = await loadScenario(new URL(`./scenarios/await-${ms}-ms.yml`, import.meta.url).pathname)
    const results = new Map<string, number>()
    for (let run = 0; run < runs; run++) {
      const runner = inProcessRunner()
      const report = await sweepScenario(scenario, { strategy: 'auto', budget: 5040, seed: '0', workers: 1 }, { runner })
      await runner.close()
      const key = JSON.stringify({ verdict: report.verdict, outputs: report.outputs.map(output => [output.hash, output.count]) })
      results.set(key, (results.get(key) ?? 0) + 1)
    }
    const verdicts = [...results.keys()].map(key => (JSON.parse(key) as { verdict: string }).verdict)
    rows.push({ ms, runs, distinctResults: results.size, verdicts: [...new Set(verdicts)] })
    onDelay?.(ms, results.size)
  }
  return { rows, stable: rows.every(row => row.distinctResults === 1 && row.verdicts.length === 1 && row.verdicts[0] === 'divergent') }
}
