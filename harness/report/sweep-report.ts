/**
 * The machine contract of a determinism report (`report.json`). Every other
 * report format is rendered from this one object: the sweep's options and
 * summary around one judged entry per scenario (`ScenarioReport`, declared by
 * the judging layer that builds it).
 */
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { Envelope } from './envelope.ts'

/** `report.json`: one judged entry per scenario of the sweep. */
export interface Report extends Envelope<ReportOptions, ReportSummary> {
  /** The kind of report (`loadrace merge` tells a sweep's shards from a test run's by it). */
  report: 'sweep'
  scenarios: ScenarioReport[]
  /** Goldens that belong to no swept scenario (checked in CI on complete, unsharded sweeps); their presence fails the sweep. */
  obsoleteGoldens?: string[]
}

/** How the sweep ran. */
export interface ReportOptions {
  strategy: string
  seed: string
  budget: number
  /** PCT depth (`--depth`), null when the strategy default applied. */
  depth: number | null
  /** Covering strength (`--strength`), null when the strategy default applied. */
  strength: number | null
  /** `i/n`, or null when not sharded. */
  shard: string | null
  workers: number
  /** The hosts given with `--hosts` (or `--host`); null when each scenario ran on its default host. */
  hosts: string[] | null
}

export interface ReportSummary {
  /** Every scenario of the sweep, skipped ones included. */
  scenarios: number
  /** Scenarios that ran and met their expectation. */
  passed: number
  /** Scenarios that ran and did not. */
  failed: number
  /** Scenarios that did not run (verdict `skipped`); counted in neither `passed` nor `failed`. */
  skipped: number
  interleavings: number
}
