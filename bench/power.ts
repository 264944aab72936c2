import { loadScenario } from '../harness/scenario/load.ts'
import type { BugId, PlantedBug, PowerFigures, PowerRow } from './figures.ts'
import { BUG_IDS, PLANTED } from './planted.ts'
import { runOnThreads } from './threads.ts'
import { CONTENDERS, type TrialJob, type TrialOutcome } from './trials.ts'

/** The budget of every trial: interleavings a contender may spend before the bug counts as missed. */
export const POWER_BUDGET = 100
/** Seeds per (contender, bug). */
export const POWER_SEEDS = 200

/** The nearest-rank `p`-th percentile of ascending `sorted`; Infinity stands for "not within the budget". */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null
}

/** Summarises the trials of one contender on one bug. */
export function powerRow(strategy: string, bug: BugId, outcomes: readonly TrialOutcome[]): PowerRow {
  const reached = outcomes.map(outcome => outcome.firstDivergence ?? Infinity).sort((a, b) => a - b)
  const detected = reached.filter(Number.isFinite).length
  const planned = outcomes.map(outcome => outcome.planned)
  const plans = CONTENDERS.find(contender => contender.label === strategy)?.kind === 'harness'
  return {
    strategy,
    bug,
    trials: outcomes.length,
    detected,
    rate: outcomes.length === 0 ? 0 : detected / outcomes.length,
    median: outcomes.length === 0 ? null : finite(percentile(reached, 50)),
    p95: outcomes.length === 0 ? null : finite(percentile(reached, 95)),
    max: outcomes.length === 0 ? null : finite(reached[reached.length - 1]!),
    planned: plans && planned.length > 0 ? { min: Math.min(...planned), max: Math.max(...planned) } : null,
  }
}

/** Every trial of the headline table, contender-major. */
export function powerJobs(seeds: number, budget: number): TrialJob[] {
  return CONTENDERS.flatMap(contender => BUG_IDS.flatMap(bug =>
    Array.from({ length: seeds }, (_, seed): TrialJob => ({ contender: contender.label, bug, seed, budget }))))
}

/**
 * The headline table: every contender against both planted bugs over
 * `seeds` seeds, `budget` interleavings each, on `threads` worker threads.
 */
export async function measurePower(options: {
  seeds: number
  budget: number
  threads: number
  onProgress?: (done: number, total: number) => void
}): Promise<PowerFigures> {
  const started = performance.now()
  const bugs: PlantedBug[] = []
  for (const bug of BUG_IDS) {
    const { file, ...planted } = PLANTED[bug]
    const scenario = await loadScenario(file)
    bugs.push({ ...planted, plugins: scenario.plugins.length })
  }
  const jobs = powerJobs(options.seeds, options.budget)
  const outcomes = await runOnThreads<TrialJob, TrialOutcome>(
    new URL('./power-thread.ts', import.meta.url),
    options.threads,
    jobs,
    (_, done, total) => options.onProgress?.(done, total),
  )
  const rows = CONTENDERS.flatMap(contender => BUG_IDS.map(bug =>
    powerRow(contender.label, bug, outcomes.filter(outcome => outcome.contender === contender.label && outcome.bug === bug))))
  return { budget: options.budget, seeds: options.seeds, bugs, rows, seconds: (performance.now() - started) / 1000 }
}
