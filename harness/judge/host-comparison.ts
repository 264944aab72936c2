import type { Scenario } from '../scenario/scenario.ts'
import type { HostDifference, UncontrolledReplay } from '../verdict/verdict.ts'
import { diffPart, firstDifference } from '../oracle/compare.ts'
import { parseProjection } from '../projection/projection.ts'
import type { Exploration } from '../explore/exploration.ts'
import type { RunCache } from '../runners/run-cache.ts'
import { tokenOf } from '../token.ts'
import type { Unreproduced } from './order-only.ts'

/** One host's exploration of the same plan, for comparing with the first host's. */
export interface HostRun {
  /** The scenario as it ran there (its `host` names the host; absent for this very process). */
  scenario: Scenario
  exploration: Exploration
  /** Fresh runs on that host. */
  cache: RunCache
}

/** What comparing hosts found: nothing, a host dependence, or a position whose bytes a host did not reproduce. */
export type HostFinding =
  | { kind: 'same' }
  | { kind: 'host-dependent', difference: HostDifference }
  | { kind: 'uncontrolled', replay: UncontrolledReplay, unreproduced: Unreproduced }

/** How often each side of a host difference is rerun before it is reported: a rerun that moves is not a host's doing. */
export const HOST_RERUNS = 2

function hostName(scenario: Scenario): string {
  return scenario.runsOn ?? 'current'
}

/**
 * Compares the first host's exploration with every other host's, position by
 * position of the same plan: the same schedule must give the same bytes on
 * every host. At the first position where two hosts disagree, both sides are
 * rerun on their own host; when each reproduces its own bytes, the
 * difference is the host's (`host-dependent`, with both hashes, both tokens
 * and the diff), otherwise the side that moved is `uncontrolled`.
 */
export async function compareHosts(first: HostRun, others: readonly HostRun[]): Promise<HostFinding> {
  const mine = first.exploration.byPosition
  if (mine === undefined) return { kind: 'same' }
  for (const other of others) {
    const theirs = other.exploration.byPosition
    if (theirs === undefined) continue
    const position = [...mine.keys()].sort((a, b) => a - b).find(at => theirs.has(at) && theirs.get(at)!.hash !== mine.get(at)!.hash)
    if (position === undefined) continue
    const schedule = mine.get(position)!.schedule
    const sides: { run: HostRun, hash: string, json: string }[] = []
    for (const [run, expected] of [[first, mine.get(position)!.hash], [other, theirs.get(position)!.hash]] as const) {
      let json = ''
      for (let time = 0; time < HOST_RERUNS; time++) {
        const again = await run.cache.rerun(schedule)
        if (again.hash !== expected) {
          const token = tokenOf(run.scenario, schedule)
          const replay: UncontrolledReplay = { token, hashes: [expected, again.hash], part: null, diff: '' }
          // The explored bytes are the shard's or the other host's: only their hash is at hand.
          return { kind: 'uncontrolled', replay, unreproduced: { replay, schedule, controlled: [{ hash: expected }, again], cache: run.cache } }
        }
        json = again.json
      }
      sides.push({ run, hash: expected, json })
    }
    const [a, b] = sides as [typeof sides[0], typeof sides[0]]
    const left = parseProjection(a.json)
    const right = parseProjection(b.json)
    const part = firstDifference(left, right)?.part ?? 'events'
    const tokens: [string, string] = [tokenOf(a.run.scenario, schedule), tokenOf(b.run.scenario, schedule)]
    return {
      kind: 'host-dependent',
      difference: {
        hosts: [hostName(a.run.scenario), hostName(b.run.scenario)],
        hashes: [a.hash, b.hash],
        tokens,
        part,
        diff: diffPart(left, right, part, tokens),
      },
    }
  }
  return { kind: 'same' }
}
