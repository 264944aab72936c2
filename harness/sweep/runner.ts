import type { Scenario } from '../scenario/types.ts'
import type { Schedule } from '../space/space.ts'
import type { Outcome, StuckInfo } from '../oracle/projection.ts'
import { headerToolNames } from '../oracle/projection.ts'
import { loadTarget } from '../targets/index.ts'
import { runInterleaving } from '../run/interleaving.ts'
import type { Contributions } from '../run/contributions.ts'

/** One explored interleaving, as the sweep keeps it. */
export interface RunRecord {
  /** Position of the schedule in the sweep's exploration order. */
  index: number
  /** The effective (released) order: what a replay token names. */
  schedule: string[]
  hash: string
  outcome: Outcome
  tools: string[]
  stuck: StuckInfo | null
  /** The projection's bytes; a runner may omit it for a hash it already reported. */
  json?: string
  /** Who contributed each tool and prompt section (for naming what moved in a divergence). */
  contributions?: Contributions
}

/** Runs interleavings of one scenario; in this process or spread over worker threads. */
export interface Runner {
  /** Runs every schedule (in any order, possibly concurrently) and reports each record as it completes; stops starting new ones once `signal` aborts. */
  runAll(scenario: Scenario, schedules: readonly Schedule[], onRecord: (record: RunRecord) => void, signal?: AbortSignal): Promise<void>
  /** Runs one schedule and returns its full record. */
  runOne(scenario: Scenario, schedule: Schedule): Promise<RunRecord & { json: string }>
  close(): Promise<void>
}

/** Runs one schedule in this process. */
export async function runRecord(scenario: Scenario, schedule: Schedule, index: number, timeoutMs?: number): Promise<RunRecord & { json: string }> {
  const target = await loadTarget(scenario.target)
  const result = await runInterleaving(scenario, target, schedule, { timeoutMs })
  return {
    index,
    schedule: result.schedule,
    hash: result.hash,
    outcome: result.projection.outcome,
    tools: headerToolNames(result.projection),
    stuck: result.projection.stuck,
    json: result.json,
    contributions: result.contributions,
  }
}

/** The in-process runner: one interleaving at a time, each in a fresh context. */
export function inProcessRunner(options: { timeoutMs?: number } = {}): Runner {
  return {
    async runAll(scenario, schedules, onRecord, signal) {
      const reported = new Set<string>()
      for (const [index, schedule] of schedules.entries()) {
        if (signal?.aborted) return
        const record: RunRecord = await runRecord(scenario, schedule, index, options.timeoutMs)
        if (reported.has(record.hash)) delete record.json
        else reported.add(record.hash)
        onRecord(record)
      }
    },
    runOne: (scenario, schedule) => runRecord(scenario, schedule, -1, options.timeoutMs),
    async close() {},
  }
}
