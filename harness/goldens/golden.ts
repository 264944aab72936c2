import { readFile, rename, writeFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { unifiedDiff } from '../oracle/diff.ts'
import type { Projection } from '../projection/projection.ts'
import type { Crash } from '../verdict/outcome.ts'
import type { Settings } from '../settings/settings.ts'
import { goldensFolderOf } from './location.ts'

/**
 * How a scenario's canonical projection compared with its golden. `withheld`:
 * the golden was due to be written (missing, or `-u`), but the scenario did
 * not meet its expectation, so nothing was written (`reason` says why).
 */
export type GoldenStatus = 'match' | 'mismatch' | 'written' | 'missing' | 'withheld' | 'none'

/**
 * A golden pins the canonical projection of a deterministic scenario: the
 * header, the first dispatched request, the sequence of session event types,
 * and the errors. Every sweep compares against it, so a change of the
 * model-facing bytes that is the same in every interleaving is caught too.
 */
export interface Golden {
  scenario: string
  outcome: string
  header: unknown
  request: unknown
  events: string[]
  errors: { load: string[], turn: string[] }
  /** How the system crashed, for a scenario that expects the crash; absent otherwise. */
  crash?: Crash
}

export function goldenOf(scenario: string, projection: Projection): Golden {
  return {
    scenario,
    outcome: projection.outcome,
    header: projection.header,
    request: projection.requests[0] ?? null,
    events: projection.events.map(event => String((event as { type?: unknown }).type)),
    errors: projection.errors,
    ...projection.crash === undefined ? {} : { crash: projection.crash },
  }
}

export function renderGolden(golden: Golden): string {
  return JSON.stringify(golden, null, 2) + '\n'
}

export function goldenPath(dir: string, scenario: string): string {
  return join(dir, `${scenario}.json`)
}

export interface GoldenCheck {
  status: GoldenStatus
  /** The golden's path (absent for `none`). */
  file?: string
  /** Unified diff (golden → actual) when it mismatched. */
  diff?: string
  /** With `withheld`: why the golden was not written. */
  reason?: string
}

/**
 * What a golden check may do: the golden settings of the run (where the
 * goldens are, whether to write them anew, whether this is CI), and whether
 * it may only compare.
 */
export interface GoldenPolicy extends Pick<Settings, 'goldens' | 'updateGoldens' | 'ci'> {
  /** Only compare with what is pinned: never write, and a missing golden is `none` (nothing pinned), not a failure. */
  compareOnly?: boolean
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Writes atomically: a temporary file in the same directory, then a rename. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`
  await writeFile(temp, text)
  await rename(temp, path)
}

/**
 * Compares (or writes) the golden of the scenario in `file`. `withhold` is
 * why nothing may be written (the scenario did not meet its expectation):
 * the pinned golden is still compared, but one that would have been written
 * — missing, or different under `updateGoldens` — is `withheld`, with that reason.
 */
export async function checkGolden(golden: Golden, file: string, policy: GoldenPolicy, withhold?: string): Promise<GoldenCheck> {
  const path = goldenPath(goldensFolderOf(file, policy.goldens), golden.scenario)
  const actual = renderGolden(golden)
  const pinned = await readText(path)
  if (pinned === actual) return { status: 'match', file: path }
  const diff = () => unifiedDiff(`${path} (golden)`, `${golden.scenario} (this sweep)`, pinned!, actual)
  if (withhold !== undefined) {
    if (pinned === undefined) return { status: 'withheld', file: path, reason: withhold }
    return policy.updateGoldens ? { status: 'withheld', file: path, reason: withhold, diff: diff() } : { status: 'mismatch', file: path, diff: diff() }
  }
  if (policy.updateGoldens || (pinned === undefined && !policy.ci)) {
    await mkdir(dirname(path), { recursive: true })
    await writeAtomically(path, actual)
    return { status: 'written', file: path }
  }
  if (pinned === undefined) return { status: 'missing', file: path }
  return { status: 'mismatch', file: path, diff: diff() }
}
