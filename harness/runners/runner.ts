import type { Scenario } from '../scenario/scenario.ts'
import type { Schedule } from '../space/space.ts'
import type { Outcome, StuckInfo } from '../verdict/outcome.ts'
import { headerToolNames } from '../projection/projection.ts'
import { loadTarget } from '../targets/index.ts'
import { runInterleaving } from '../runtime/interleaving.ts'
import type { HeldResources } from '../runtime/run-state.ts'
import type { Control } from '../runtime/operations.ts'
import type { Contributions } from '../runtime/contributions.ts'
import type { Apply } from '../preload/applies.js'
import type { RanOn } from '../system/system.ts'
import type { SystemOutput } from '../runtime/output-capture.ts'

/** One explored interleaving, as the sweep keeps it. */
export interface InterleavingRecord {
  /** Position of the schedule in the sweep's exploration order. */
  index: number
  /** The effective (released) order. */
  schedule: string[]
  /** For each operation of `schedule`, how many operations before it had been released when it was requested. */
  enabledAt: number[]
  /** Operations of the planned schedule that were never released (never became pending), in planned order. */
  unreached: string[]
  hash: string
  outcome: Outcome
  tools: string[]
  stuck: StuckInfo | null
  /** The projection's bytes; a runner may omit it for a hash it already reported. */
  json?: string
  /** Who contributed each tool and prompt section (for naming what moved in a divergence). */
  contributions?: Contributions
  /** The plugins applied under the loader's entries, in order, with what each waited for (for a plan over applies). */
  applies?: readonly Apply[]
  /** The Node the run ran on, the APIs the target had to supply to it, and the system's packages. */
  runtime?: RanOn
  /** What the system printed in this interleaving (not part of its bytes); absent when it printed nothing. */
  systemOutput?: SystemOutput
  /** The timers and clocks loadrace held for the system, and the real I/O it opened; absent from records of older workers. */
  held?: HeldResources
  /** Set when the run had loadrace's control of timers and clocks off (`control: 'order-only'`). */
  control?: 'order-only'
}

/** Runs interleavings of one scenario; in this process or spread over worker processes. */
export interface Runner {
  /** Runs every schedule (in any order, possibly concurrently) and reports each record as it completes; stops starting new ones once `signal` aborts. */
  runAll(scenario: Scenario, schedules: readonly Schedule[], onRecord: (record: InterleavingRecord) => void, signal?: AbortSignal): Promise<void>
  /** Runs one schedule and returns its full record; `control` overrides the runner's (see {@link RunSettings}). */
  runOne(scenario: Scenario, schedule: Schedule, control?: Control): Promise<InterleavingRecord & { json: string }>
  close(): Promise<void>
}

/**
 * The order a replay token names for a record: the effective order, then the
 * operations that were never released, in planned order. Replaying it
 * releases the same operations in the same order (the rest again never
 * become pending), and names every operation of the space.
 */
export function replayableSchedule(record: Pick<InterleavingRecord, 'schedule' | 'unreached'>): string[] {
  return [...record.schedule, ...record.unreached]
}

/** How every interleaving of a runner runs, wherever it runs. */
export interface RunSettings {
  /** Per-interleaving timeout; undefined: the scenario's own, else the default. */
  timeoutMs?: number
  /** Keep the working folder of an interleaving whose outcome is not the expected one, and say where (`--keep-workdirs`). */
  keepWorkdirs?: boolean
  /** How much of each interleaving loadrace controls (see `Control`); default `full`. */
  control?: Control
}

/** Runs one schedule in this process. */
export async function interleavingRecord(scenario: Scenario, schedule: Schedule, index: number, settings: RunSettings = {}): Promise<InterleavingRecord & { json: string }> {
  const target = await loadTarget(scenario.target)
  const control = settings.control ?? 'full'
  const result = await runInterleaving(scenario, target, schedule, { timeoutMs: settings.timeoutMs, keepWorkdir: settings.keepWorkdirs, control })
  const system = await target.system(scenario.system)
  return {
    index,
    schedule: result.schedule,
    enabledAt: result.enabledAt,
    unreached: schedule.filter(op => !result.schedule.includes(op)),
    hash: result.hash,
    outcome: result.projection.outcome,
    tools: headerToolNames(result.projection),
    stuck: result.projection.stuck,
    json: result.json,
    contributions: result.contributions,
    ...result.applies === undefined ? {} : { applies: result.applies },
    runtime: { node: process.version, shims: [...target.shims?.() ?? []], system: target.describe(system) },
    ...result.output === undefined ? {} : { systemOutput: result.output },
    held: result.held,
    ...control === 'order-only' ? { control } : {},
  }
}

/** The in-process runner: one interleaving at a time, each in a fresh context. */
export function inProcessRunner(options: RunSettings = {}): Runner {
  return {
    async runAll(scenario, schedules, onRecord, signal) {
      const reported = new Set<string>()
      for (const [index, schedule] of schedules.entries()) {
        if (signal?.aborted) return
        const record: InterleavingRecord = await interleavingRecord(scenario, schedule, index, options)
        if (reported.has(record.hash)) delete record.json
        else reported.add(record.hash)
        onRecord(record)
      }
    },
    runOne: (scenario, schedule, control) => interleavingRecord(scenario, schedule, -1, control === undefined ? options : { ...options, control }),
    async close() {},
  }
}
