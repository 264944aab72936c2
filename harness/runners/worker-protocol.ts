import type { VariantName } from '../targets/catalogue.ts'
import type { TargetName } from '../scenario/scenario.ts'
import type { InterleavingRecord, RunSettings } from './runner.ts'
import type { Control } from '../runtime/operations.ts'

/**
 * The messages between the worker pool and its worker processes. A scenario
 * cannot cross a process boundary (module plugins are live code), so a job
 * names the scenario file and the overrides, and the worker loads it itself.
 * Every message carries a list: the pool sends jobs and a worker answers them
 * several at a time, so that neither side pays for a message (a write, a
 * wake-up, a read) per interleaving — on a machine whose cores the workers
 * fill, each wake-up of the pool's process takes a core from a worker.
 */

/**
 * How many jobs one message carries at most, and how many answers a worker
 * gathers before it sends them (it sends sooner when it has nothing left to run).
 */
export const JOBS_PER_MESSAGE = 4

/** The settings a worker process starts with (in its `LOADRACE_WORKER` variable): how its interleavings run. */
export type WorkerSettings = RunSettings

/** One interleaving to run. */
export interface WorkerJob {
  id: number
  /** Jobs of one `runAll` share a batch; the projection JSON is sent once per hash and batch. */
  batch: number
  /** Send the projection JSON even for a hash this worker already reported in this batch. */
  alwaysJson: boolean
  /** The scenario file as given on the command line (relative to the shared working directory). */
  file: string
  /** The scenario's name, to check the file still holds it. */
  scenario: string
  variant: VariantName
  target: TargetName
  schedule: string[]
  /** The schedule's position in the batch. */
  index: number
  /** How much of this interleaving loadrace controls, overriding the worker's settings (a rerun with the timers and clocks real: `order-only`). */
  control?: Control
}

/** A worker's answer to one job; a message carries the answers to several, in the order the jobs were sent. */
export type WorkerReply =
  | { kind: 'record', id: number, record: InterleavingRecord }
  | { kind: 'failed', id: number, message: string }
