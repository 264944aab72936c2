import type { Scenario } from '../scenario/scenario.ts'
import type { TargetName } from '../targets/target.ts'
import { loadTarget } from '../targets/index.ts'
import { comparedTargets } from '../targets/registry.ts'
import { sweepScenario, type SweepRun, type SweepSettings } from '../sweep/sweep.ts'
import { withOverrides } from '../scenario/overrides.ts'
import { unmetRequirement } from '../hosts/requirements.ts'
import { enveloped } from '../report/envelope.ts'
import { compareInterleavings, type Side } from './observe.ts'
import type { ScenarioComparison, SkippedPair, TargetDiffReport } from './target-diff-report.ts'

/** The two sides, in report order (the two targets the registry marks compared). */
export const COMPARED_TARGETS: [TargetName, TargetName] = comparedTargets()

/** The settings both sides are swept with: the same strategy, seed and budget; each scenario keeps its own variant. */
export type TargetDiffSettings = Omit<SweepSettings, 'variant' | 'target' | 'shard'>

/** How the comparison runs besides its settings. */
export interface TargetDiffRun extends Pick<SweepRun, 'runner' | 'signal' | 'onProgress'> {
  /** Called after each scenario with its comparison, or the pairs it was skipped for. */
  onCompared?: (scenario: Scenario, result: ScenarioComparison | SkippedPair[]) => void
}

/** The targets that cannot run `scenario`, with their reasons (`Target.unsupported`, or what the machine lacks of its `requires:`). */
export async function skippedPairs(scenario: Scenario): Promise<SkippedPair[]> {
  const skipped: SkippedPair[] = []
  for (const name of COMPARED_TARGETS) {
    const reason = (await loadTarget(name)).unsupported(withOverrides(scenario, { target: name })) ?? (scenario.requires === undefined ? undefined : unmetRequirement(scenario.requires))
    if (reason !== undefined) skipped.push({ scenario: scenario.name, file: scenario.file, target: name, reason })
  }
  return skipped
}

/** Sweeps `scenario` against both targets and compares their projections interleaving by interleaving; undefined when interrupted. */
export async function compareScenario(scenario: Scenario, settings: TargetDiffSettings, run: TargetDiffRun): Promise<ScenarioComparison | undefined> {
  const side = async (target: TargetName): Promise<Side | undefined> => {
    const entry = await sweepScenario(scenario, settings, { runner: run.runner, signal: run.signal, onProgress: run.onProgress, overrides: { target } })
    return run.signal?.aborted ? undefined : { target, entry }
  }
  const left = await side(COMPARED_TARGETS[0])
  const right = left && await side(COMPARED_TARGETS[1])
  if (!left || !right) return undefined
  const found = await compareInterleavings(scenario, [left, right], run.runner)
  return {
    scenario: scenario.name,
    file: scenario.file,
    verdicts: [left.entry.verdict, right.entry.verdict],
    explored: [left.entry.explored, right.entry.explored],
    ...found,
  }
}

/**
 * Sweeps every scenario both targets can run against the reference and the
 * published dsh packages with the same plan, and compares their projections
 * of the same interleavings: the header fold, every dispatched request, the
 * event-type sequence, status and error records, load errors and stuck state,
 * after the declared normalisations only. Scenarios a target cannot run are
 * listed with the reason. Stops early, and marks the report incomplete, when the signal
 * aborts.
 */
export async function diffTargets(scenarios: readonly Scenario[], settings: TargetDiffSettings, run: TargetDiffRun): Promise<TargetDiffReport> {
  const started = Date.now()
  const compared: ScenarioComparison[] = []
  const skipped: SkippedPair[] = []
  let handled = 0
  for (const scenario of scenarios) {
    if (run.signal?.aborted) break
    const pairs = await skippedPairs(scenario)
    if (pairs.length > 0) {
      skipped.push(...pairs)
      run.onCompared?.(scenario, pairs)
      handled++
      continue
    }
    const comparison = await compareScenario(scenario, settings, run)
    if (!comparison) break
    compared.push(comparison)
    run.onCompared?.(scenario, comparison)
    handled++
  }
  return enveloped('diff-targets', {
    complete: handled === scenarios.length,
    options: { strategy: settings.strategy, seed: settings.seed, budget: settings.budget },
    body: { targets: [...COMPARED_TARGETS] as [TargetName, TargetName], compared, skipped },
    summary: {
      scenarios: scenarios.length,
      compared: compared.length,
      differing: compared.filter(comparison => comparison.differences.length > 0).length,
      skipped: new Set(skipped.map(pair => pair.scenario)).size,
    },
    durationMs: Date.now() - started,
  })
}
