import { inShard } from '../explore/shard.ts'
import type { AnyReporter } from '../report/reporter.ts'
import type { Shard } from '../settings/shard.ts'
import { runCommand, type CommandRun, type RunPlace, type RunRequest } from './command-run.ts'
import { Interrupted } from './interrupted.ts'
import { planConfigurations, rowsOfRun, runsNeeded, type ConfigurationPlan, type ConfigurationSettings } from './plan.ts'

/**
 * The runs of the whole command: the natural run, then one run per row of
 * the plan (this shard's part of them), one after another, each told to the
 * reporters as it starts and ends. An interruption ends the run in progress;
 * that run gives no result, and the rest never start.
 */

/** The name of the natural run (the command as it always runs, nothing reordered). */
export const NATURAL_RUN = 'natural'

/** The name of run k of the plan (0-based). */
export function scheduleName(k: number): string {
  return `schedule-${k + 1}`
}

/** What the plan's runs gave. */
export interface PlanRuns {
  readonly plans: readonly ConfigurationPlan[]
  /** The runs after the natural run that finished, in order. */
  readonly runs: readonly CommandRun[]
  /** Set when interrupted: the run in progress, and every run of the plan that never gave a result. */
  readonly interrupted?: { readonly during: string, readonly neverRan: readonly string[] }
}

/** Runs the command once as `request` says, telling `reporters`; throws `Interrupted` when a signal ended it. */
export async function runOnce(place: RunPlace, request: RunRequest, at: { index: number, total: number }, reporters: readonly AnyReporter[], signal?: AbortSignal): Promise<CommandRun> {
  if (signal?.aborted) throw new Interrupted(request.name)
  for (const reporter of reporters) reporter.onRunStart?.({ name: request.name, ...at })
  const run = await runCommand(place, request)
  if (signal?.aborted) throw new Interrupted(request.name)
  for (const reporter of reporters) {
    reporter.onRunEnd?.({ name: run.name, ...at, durationMs: run.durationMs, exitCode: run.exitCode, signal: run.signal, tests: run.results?.length, processes: run.processes.length })
  }
  return run
}

/** The natural run: the command as it runs by itself; the preload records, reorders nothing. */
export function runNatural(place: RunPlace, reporters: readonly AnyReporter[], signal?: AbortSignal): Promise<CommandRun> {
  return runOnce(place, { name: NATURAL_RUN, schedule: { mode: 'natural', project: place.cwd, rows: {} } }, { index: 0, total: 0 }, reporters, signal)
}

/** Plans every configuration the natural run booted and runs this shard's rows. */
export async function runPlan(natural: CommandRun, place: RunPlace, settings: ConfigurationSettings & { shard?: Shard }, reporters: readonly AnyReporter[], signal?: AbortSignal): Promise<PlanRuns> {
  const plans = planConfigurations(natural.processes, { ...settings, countsNatural: settings.shard === undefined })
  const indices = Array.from({ length: runsNeeded(plans) }, (_, k) => k).filter(k => inShard(k, settings.shard))
  const runs: CommandRun[] = []
  for (const [position, k] of indices.entries()) {
    const rows = rowsOfRun(plans, k)
    try {
      runs.push(await runOnce(place, { name: scheduleName(k), schedule: { mode: 'row', project: place.cwd, rows } }, { index: position + 1, total: indices.length + 1 }, reporters, signal))
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error
      return { plans, runs, interrupted: { during: error.during, neverRan: indices.slice(position).map(scheduleName) } }
    }
  }
  return { plans, runs }
}
