import type { Scenario } from '../scenario/scenario.ts'
import { pluginOf } from '../space/space.ts'
import { tokenOf } from '../token.ts'
import { minimise } from '../oracle/minimise.ts'
import { bytesDifference, diffPart, firstDifference, partOf } from '../oracle/compare.ts'
import { movedContributions, movedOwners, sectionDiff } from '../oracle/moved.ts'
import { describeDifference, locateDifference } from '../oracle/readable.ts'
import { parseProjection } from '../projection/projection.ts'
import type { Exploration, OutputGroup } from '../explore/exploration.ts'
import type { RunCache } from '../runners/run-cache.ts'
import { replayableSchedule, type InterleavingRecord } from '../runners/runner.ts'
import { swapMatrix, swapPlugins } from './swaps.ts'
import { inactivityOf, partlyInactive } from './inactivity.ts'
import { compareHosts, type HostRun } from './host-comparison.ts'
import type { Divergence } from '../verdict/divergence.ts'
import type { Analysis, HostDifference, UncontrolledReplay } from '../verdict/verdict.ts'
import { orderOnlyVerdict, type Unreproduced } from './order-only.ts'
import type { StuckInfo } from '../verdict/outcome.ts'

/**
 * How many fresh reruns each distinct output's first interleaving gets before
 * the exploration is judged: every output once; the first output (the
 * reference point of every comparison) twice; both sides of a divergence four
 * times before the difference is blamed on the order.
 */
export const REPLAYS = { output: 1, baseline: 2, divergence: 4 } as const

/** Said with every uncontrolled verdict: where such nondeterminism usually comes from. */
export const UNCONTROLLED_CAUSES =
  'likely module-level state in a plugin module (a module is evaluated once per process, so its state survives from one '
  + 'run to the next), or a clock, random source or I/O the scheduler does not control'

/** The reruns output `index` gets (see `REPLAYS`); `divergent`: the exploration is about to be blamed on an order. */
function rerunsOf(index: number, divergent: boolean): number {
  if (divergent && index <= 1) return REPLAYS.divergence
  return index === 0 ? REPLAYS.baseline : REPLAYS.output
}

/** The first part in which the explored and the rerun bytes differ, and its diff (none when they are the same bytes). */
function rerunDifference(token: string, explored: string, rerun: string): Pick<UncontrolledReplay, 'part' | 'diff' | 'firstDifference' | 'endings'> {
  return bytesDifference(explored, rerun, [`${token} (explored)`, `${token} (rerun)`])
}

/**
 * Runs the first interleaving of every distinct output again, each time as a
 * new run in a fresh context (never a remembered result), and returns the
 * first whose bytes differ from what exploring it produced, with both hashes
 * and the diff; null when every rerun reproduced its output. Outputs stuck on
 * the timeout are not rerun (a timeout is not evidence of anything).
 */
export async function uncontrolledReplay(scenario: Scenario, outputs: readonly OutputGroup[], cache: RunCache, divergent: boolean): Promise<Unreproduced | null> {
  for (const [index, group] of outputs.entries()) {
    if (group.first.stuck?.reason === 'timeout') continue
    for (let time = 0; time < rerunsOf(index, divergent); time++) {
      const again = await cache.rerun(replayableSchedule(group.first))
      if (again.hash === group.hash) continue
      return unreproducedOf(scenario, group, again, cache)
    }
  }
  return null
}

/** An output's interleaving whose rerun `again` gave other bytes: the replay to report, and what judging it needs. */
function unreproducedOf(scenario: Scenario, group: OutputGroup, again: InterleavingRecord & { json: string }, cache: RunCache): Unreproduced {
  const schedule = replayableSchedule(group.first)
  const token = tokenOf(scenario, schedule)
  return {
    replay: { token, hashes: [group.hash, again.hash], ...rerunDifference(token, group.json, again.json) },
    schedule,
    controlled: [{ ...group.first, json: group.json }, again],
    cache,
  }
}

/** The first of the two outputs' interleavings that does not give its output's bytes when it runs again, or undefined when both do. */
async function unreproduced(scenario: Scenario, groups: readonly OutputGroup[], cache: RunCache): Promise<Unreproduced | undefined> {
  for (const group of groups) {
    const again = await cache.run(replayableSchedule(group.first))
    if (again.hash === group.hash) continue
    return unreproducedOf(scenario, group, again, cache)
  }
  return undefined
}

/**
 * Two interleavings one adjacent swap apart whose bytes differ, found from the
 * first interleavings of the outputs `base` and `divergent`, with what moved
 * and the swap matrix. When one of those interleavings no longer gives its
 * output's bytes (nondeterminism the reruns did not happen to show), there is
 * no order to blame: the replay that moved is returned instead.
 */
export async function counterexample(scenario: Scenario, exploration: Exploration, baseOutput: OutputGroup, divergentOutput: OutputGroup, cache: RunCache): Promise<Divergence | { uncontrolled: Unreproduced }> {
  const moved = await unreproduced(scenario, [baseOutput, divergentOutput], cache)
  if (moved !== undefined) return { uncontrolled: moved }
  const { space } = exploration
  const base = baseOutput.first
  const result = await minimise(replayableSchedule(base), replayableSchedule(divergentOutput.first), schedule => cache.hash(schedule))
  const left = await cache.run(result.left)
  const right = await cache.run(result.right)
  const tokens: [string, string] = [tokenOf(scenario, replayableSchedule(left)), tokenOf(scenario, replayableSchedule(right))]
  const a = parseProjection(left.json)
  const b = parseProjection(right.json)
  const difference = firstDifference(a, b) ?? { part: 'events', kind: 'content' }
  // A crash cut one side short: nothing it would have contributed moved.
  const cut = left.outcome === 'crashed' || right.outcome === 'crashed'
  const movedItems = cut ? [] : movedContributions(left.contributions, right.contributions)
  const plugins = swapPlugins(space, result.blame, movedOwners(movedItems))
  const located = locateDifference(partOf(a, difference.part), partOf(b, difference.part))
  const sections = cut ? undefined : sectionDiff(left.contributions, right.contributions, ['before the swap', 'after the swap'])
  const partly = partlyInactive(inactivityOf(exploration))
  return {
    part: difference.part,
    kind: difference.kind,
    blame: [pluginOf(result.blame[0]), pluginOf(result.blame[1])],
    tokens,
    diff: diffPart(a, b, difference.part, tokens),
    firstDifference: located ? describeDifference(difference.part, located) : difference.part,
    moved: movedItems,
    ...sections === undefined ? {} : { sections },
    ...partly.length === 0 ? {} : { partlyInactive: partly },
    swaps: { plugins, changed: await swapMatrix(space, replayableSchedule(base), result.blame, cache, plugins) },
  }
}

/**
 * Turns an exploration into a verdict: reruns every distinct output to rule
 * out nondeterminism the harness does not control (`uncontrolled`) — or, when
 * the interleaving's runs with loadrace's control of timers and clocks off
 * agree, its own failure to hold one (`harness-fault`, see `order-only.ts`) —, compares
 * the same plan run on other hosts (`host-dependent`), reports a
 * stuck interleaving (`stuck`), and for a divergence shrinks the first two
 * outputs' interleavings to one adjacent swap and names the two plugins
 * swapped.
 */
export async function analyse(scenario: Scenario, exploration: Exploration, cache: RunCache, otherHosts: readonly HostRun[] | HostDifference = []): Promise<Analysis> {
  const outputs = exploration.outputs
  const baseline = outputs[0]?.first
  if (!baseline) return { verdict: 'error' }
  const stuck = outputs.map(group => group.first).find((record): record is InterleavingRecord & { stuck: StuckInfo } => record.outcome === 'stuck' && record.stuck !== null)
  const uncontrolled = await uncontrolledReplay(scenario, outputs, cache, stuck === undefined && outputs.length > 1)
  if (uncontrolled) return orderOnlyVerdict(uncontrolled)
  // The same interleaving giving other bytes on another host is not an order bug: checked before any order is blamed.
  // A merge of shards brings the difference a shard already found.
  const hosts = Array.isArray(otherHosts) ? await compareHosts({ scenario, exploration, cache }, otherHosts) : { kind: 'host-dependent' as const, difference: otherHosts as HostDifference }
  if (hosts.kind === 'uncontrolled') return orderOnlyVerdict(hosts.unreproduced)
  if (hosts.kind === 'host-dependent') return { verdict: 'host-dependent', hostDifference: hosts.difference }
  if (stuck) return { verdict: 'stuck', stuck: { schedule: replayableSchedule(stuck), stuck: stuck.stuck } }
  if (outputs.length === 1) return { verdict: 'deterministic' }
  const found = await counterexample(scenario, exploration, outputs[0]!, outputs[1]!, cache)
  return 'uncontrolled' in found ? orderOnlyVerdict(found.uncontrolled) : { verdict: 'divergent', divergence: found }
}
