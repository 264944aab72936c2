import { firstDifference, type Difference } from '../oracle/compare.ts'
import { unifiedDiff } from '../oracle/diff.ts'
import { type Projection, parseProjection } from '../projection/projection.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { InputError } from '../scenario/errors.ts'
import { onHost, withOverrides } from '../scenario/overrides.ts'
import { runnersFor, type Runners } from '../runners/by-host.ts'
import { CURRENT_HOST, parseHost, type Host } from '../hosts/host.ts'
import type { SystemOutput } from '../runtime/output-capture.ts'
import { parseToken, type ReplayToken } from '../token.ts'
import type { Settings } from '../settings/settings.ts'
import { checkReplayable } from './replayable.ts'

/** One replayed token: what `loadrace replay --json` prints for it. */
export interface Replayed {
  token: string
  hash: string
  schedule: string[]
  projection: Projection
  /** What the system printed (never printed raw: on stderr, under a heading, or in the JSON); absent when nothing. */
  output?: SystemOutput
}

/** A token read and checked against its scenario, ready to run. */
interface Resolved {
  text: string
  token: ReplayToken
  scenario: Scenario
  /** Where it replays. */
  host: Host
}

/** Reads every token; throws a `TokenError` at the first that is not one. */
export function parseTokens(texts: readonly string[]): ReplayToken[] {
  return texts.map(text => parseToken(text))
}

/** The host a token replays on: `given` when there is one, else the host the token names, else this process. */
function hostFor(token: ReplayToken, given: Host | undefined): Host {
  return given ?? (token.host === undefined ? CURRENT_HOST : parseHost(token.host))
}

/** Reads a token, finds its scenario among `scenarios` and checks its order on its host; throws when either is wrong. */
async function resolveToken(text: string, scenarios: readonly Scenario[], runners: Runners, given: Host | undefined): Promise<Resolved> {
  const token = parseToken(text)
  const scenario = scenarios.find(candidate => candidate.name === token.scenario)
  if (!scenario) {
    throw new InputError([`no scenario named "${token.scenario}" (known: ${scenarios.map(candidate => candidate.name).join(', ')})`])
  }
  const host = hostFor(token, given)
  await checkReplayable(onHost(withOverrides(scenario, token), host), token.schedule, runners.of(host))
  return { text: text.trim(), token, scenario, host }
}

/** Runs the one interleaving a resolved token names, on its host (in this process for this very process's host). */
async function replayOne({ text, token, scenario, host }: Resolved, runners: Runners): Promise<Replayed> {
  const record = await runners.of(host).runOne(onHost(withOverrides(scenario, token), host), token.schedule)
  return { token: text, hash: record.hash, schedule: record.schedule, projection: parseProjection(record.json), ...record.systemOutput === undefined ? {} : { output: record.systemOutput } }
}

/** The settings `replay` reads: the timeout, and the one host to run every token on instead of the one it names. */
export type ReplaySettings = Pick<Settings, 'timeoutMs' | 'hosts'>

/**
 * Reruns the interleaving each token names: every token is read and checked
 * against its scenario's operations first (an `InputError` when one is
 * wrong), then each runs once on its host, in order.
 */
export async function replay(texts: readonly string[], scenarios: readonly Scenario[], settings: ReplaySettings): Promise<Replayed[]> {
  const host = settings.hosts?.[0]
  const runners = runnersFor({ workers: 1, timeoutMs: settings.timeoutMs })
  const replayed: Replayed[] = []
  try {
    const resolved: Resolved[] = []
    for (const text of texts) resolved.push(await resolveToken(text, scenarios, runners, host))
    for (const entry of resolved) replayed.push(await replayOne(entry, runners))
  } finally {
    await runners.close()
  }
  return replayed
}

/** A projection as `loadrace replay` prints it: pretty JSON. */
export function prettyProjection(projection: Projection): string {
  return `${JSON.stringify(projection, null, 2)}\n`
}

/** Where two replays' projections first differ (undefined: nowhere), and the unified diff of the two, A and B. */
export function compareReplays(a: Replayed, b: Replayed): { difference: Difference | undefined, diff: string } {
  return {
    difference: firstDifference(a.projection, b.projection),
    diff: unifiedDiff('A', 'B', prettyProjection(a.projection), prettyProjection(b.projection)),
  }
}
