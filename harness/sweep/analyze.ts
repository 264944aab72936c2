import type { Scenario } from '../scenario/types.ts'
import type { Divergence, Verdict } from '../report/types.ts'
import { pluginOf, type Schedule } from '../space/space.ts'
import { formatToken } from '../token.ts'
import { minimize } from '../oracle/minimize.ts'
import { diffPart, firstDifference, partOf } from '../oracle/compare.ts'
import { movedContributions, movedOwners, sectionDiff } from '../oracle/moved.ts'
import { describeDifference, locateDifference } from '../oracle/readable.ts'
import type { Projection } from '../oracle/projection.ts'
import type { Exploration } from './explore.ts'
import type { RunCache } from './hash-cache.ts'
import type { RunRecord } from './runner.ts'
import { swapMatrix, swapPlugins } from './swaps.ts'
import { spaceOfScenario } from './explore.ts'

/** What the exploration means. */
export interface Analysis {
  verdict: Verdict
  divergence: Divergence | null
  /** A schedule that replayed to different bytes, with both hashes. */
  uncontrolled: { token: string, hashes: [string, string] } | null
  /** The first stuck interleaving. */
  stuck: RunRecord | null
}

/** The replay token of an interleaving of `scenario`. */
export function tokenOf(scenario: Scenario, schedule: Schedule): string {
  return formatToken({ scenario: scenario.name, variant: scenario.variant, target: scenario.target, schedule })
}

/** How often a schedule is replayed to rule out uncontrolled nondeterminism: the first interleaving always, both sides of a divergence before it is blamed on the order. */
export const REPLAYS = { baseline: 2, divergence: 4 } as const

/** Replays `record`'s schedule `times` times; any different hash means nondeterminism the harness does not control. */
async function replayDiffers(scenario: Scenario, record: RunRecord, cache: RunCache, times: number): Promise<Analysis['uncontrolled']> {
  for (let i = 0; i < times; i++) {
    const again = await cache.rerun(record.schedule)
    if (again.hash !== record.hash) return { token: tokenOf(scenario, record.schedule), hashes: [record.hash, again.hash] }
  }
  return null
}

async function counterexample(scenario: Scenario, base: RunRecord, divergent: RunRecord, cache: RunCache): Promise<Divergence> {
  const result = await minimize(base.schedule, divergent.schedule, schedule => cache.hash(schedule))
  const left = await cache.run(result.left)
  const right = await cache.run(result.right)
  const tokens: [string, string] = [tokenOf(scenario, left.schedule), tokenOf(scenario, right.schedule)]
  const a = JSON.parse(left.json) as Projection
  const b = JSON.parse(right.json) as Projection
  const difference = firstDifference(a, b) ?? { part: 'events', kind: 'content' }
  const space = spaceOfScenario(scenario)
  const moved = movedContributions(left.contributions, right.contributions)
  const plugins = swapPlugins(space, result.blame, movedOwners(moved))
  const located = locateDifference(partOf(a, difference.part), partOf(b, difference.part))
  const sections = sectionDiff(left.contributions, right.contributions, ['before the swap', 'after the swap'])
  return {
    part: difference.part,
    kind: difference.kind,
    blame: [pluginOf(result.blame[0]), pluginOf(result.blame[1])],
    tokens,
    diff: diffPart(a, b, difference.part, tokens),
    firstDifference: located ? describeDifference(difference.part, located) : difference.part,
    moved,
    ...sections === undefined ? {} : { sections },
    swaps: { plugins, changed: await swapMatrix(space, base.schedule, result.blame, cache, plugins) },
  }
}

/**
 * Turns an exploration into a verdict: replays the first interleaving to rule
 * out nondeterminism the harness does not control (`uncontrolled`), reports a
 * stuck interleaving (`stuck`), and for a divergence replays the divergent
 * interleaving too, then shrinks the pair to one adjacent swap and names the
 * two plugins swapped.
 */
export async function analyze(scenario: Scenario, exploration: Exploration, cache: RunCache): Promise<Analysis> {
  const baseline = exploration.outputs[0]?.first
  if (!baseline) return { verdict: 'error', divergence: null, uncontrolled: null, stuck: null }
  const stuck = exploration.outputs.find(group => group.first.outcome === 'stuck')?.first ?? null
  if (stuck?.stuck?.reason !== 'timeout') {
    const uncontrolled = await replayDiffers(scenario, baseline, cache, REPLAYS.baseline)
    if (uncontrolled) return { verdict: 'uncontrolled', divergence: null, uncontrolled, stuck }
  }
  if (stuck) return { verdict: 'stuck', divergence: null, uncontrolled: null, stuck }
  if (exploration.outputs.length === 1) return { verdict: 'deterministic', divergence: null, uncontrolled: null, stuck: null }
  const divergent = exploration.outputs[1]!.first
  const uncontrolled = await replayDiffers(scenario, divergent, cache, REPLAYS.divergence)
    ?? await replayDiffers(scenario, baseline, cache, REPLAYS.divergence)
  if (uncontrolled) return { verdict: 'uncontrolled', divergence: null, uncontrolled, stuck: null }
  return { verdict: 'divergent', divergence: await counterexample(scenario, baseline, divergent, cache), uncontrolled: null, stuck: null }
}
