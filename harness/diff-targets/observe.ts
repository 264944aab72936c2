import { type Projection, parseProjection } from '../projection/projection.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { Scenario } from '../scenario/scenario.ts'
import type { Runner } from '../runners/runner.ts'
import { tokenOf } from '../token.ts'
import { withOverrides } from '../scenario/overrides.ts'
import type { TargetName } from '../targets/target.ts'
import { parseToken } from '../token.ts'
import { viewDifferences } from './compare.ts'
import type { ProjectionDifference } from './target-diff-report.ts'
import { comparedView, type ComparedView } from './view.ts'

/** At most this many differences are listed per scenario; the rest are counted. */
export const MAX_DIFFERENCES = 50

/** One side of a comparison: a target and its sweep of the scenario. */
export interface Side {
  target: TargetName
  entry: ScenarioReport
}

/** What comparing both sides' interleavings found. */
export interface InterleavingComparison {
  compared: number
  differences: ProjectionDifference[]
  omitted: number
}

/** The schedules to run on both sides: the first interleaving of every distinct output of either sweep, each once. */
function schedulesOf(sides: readonly Side[]): string[][] {
  const seen = new Map<string, string[]>()
  for (const side of sides) {
    for (const output of side.entry.outputs) {
      const schedule = parseToken(output.token).schedule
      seen.set(schedule.join(','), [...schedule])
    }
  }
  return [...seen.values()]
}

/** How a sweep's interleavings fall into distinct outputs, told by compared view: the sorted interleaving counts. */
function partition(entry: ScenarioReport, viewOf: ReadonlyMap<string, string>): number[] {
  const counts = new Map<string, number>()
  for (const output of entry.outputs) {
    const view = viewOf.get(parseToken(output.token).schedule.join(','))!
    counts.set(view, (counts.get(view) ?? 0) + output.count)
  }
  return [...counts.values()].sort((a, b) => b - a)
}

/**
 * Runs the first interleaving of every distinct output of either sweep on
 * both targets and compares their compared views (whole projections but the
 * event payloads, normalised), difference by difference, each with its path;
 * then checks that both sweeps split their interleavings into distinct
 * outputs alike. A difference seen in several interleavings is listed once.
 */
export async function compareInterleavings(scenario: Scenario, sides: readonly [Side, Side], runner: Runner): Promise<InterleavingComparison> {
  const [left, right] = sides
  const found = new Map<string, ProjectionDifference>()
  const leftViews = new Map<string, string>()
  const rightViews = new Map<string, string>()
  const run = async (target: TargetName, schedule: readonly string[]): Promise<ComparedView> => {
    const record = await runner.runOne(withOverrides(scenario, { target }), schedule)
    return comparedView(parseProjection(record.json), target)
  }
  const schedules = schedulesOf(sides)
  for (const schedule of schedules) {
    const a = await run(left.target, schedule)
    const b = await run(right.target, schedule)
    leftViews.set(schedule.join(','), JSON.stringify(a))
    rightViews.set(schedule.join(','), JSON.stringify(b))
    const token = tokenOf(withOverrides(scenario, { target: left.target }), schedule)
    for (const difference of viewDifferences(a, b)) {
      const key = JSON.stringify([difference.path, difference.kind, difference.left, difference.right])
      if (!found.has(key)) found.set(key, { ...difference, token })
    }
  }
  const outputs = [partition(left.entry, leftViews), partition(right.entry, rightViews)]
  const differences = [...found.values()]
  if (JSON.stringify(outputs[0]) !== JSON.stringify(outputs[1])) {
    differences.push({ path: 'outputs', kind: 'value', left: outputs[0], right: outputs[1], token: left.entry.outputs[0]?.token ?? '' })
  }
  return { compared: schedules.length, differences: differences.slice(0, MAX_DIFFERENCES), omitted: Math.max(0, differences.length - MAX_DIFFERENCES) }
}
