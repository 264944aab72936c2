import type { StrategyName } from '../strategies/index.ts'
import type { VariantName } from '../targets/catalogue.ts'
import type { TargetName } from '../targets/target.ts'
import type { Host } from '../hosts/host.ts'
import type { Shard } from './shard.ts'
import type { ReportFormat } from './formats.ts'

/**
 * Every knob of a run, resolved once (see `resolveSettings`) from the command
 * line, the environment and the defaults, validated once, and passed whole.
 * Each name is the one the command line (`--budget`), the environment
 * (`LOADRACE_BUDGET`), `loadrace/vitest` and the report's `options` use; the
 * one exception is `timeoutMs`, whose option is `--timeout MS`.
 */
export interface Settings {
  /** How interleavings are picked. */
  strategy: StrategyName
  /** Most interleavings per scenario (a scenario's own `budget:` caps it further). */
  budget: number
  /** Seed of every random choice. */
  seed: string
  /** PCT bug depth; undefined: the strategy's default. */
  depth?: number
  /** Covering strength t; undefined: the strategy's default. */
  strength?: number
  /** Run every scenario under this ordering variant instead of its own. */
  variant?: VariantName
  /** Run every scenario against this target instead of its own. */
  target?: TargetName
  /** Explore only this shard of every interleaving space. */
  shard?: Shard
  /** Worker processes (1: in this process). */
  workers: number
  /** Per-interleaving timeout in milliseconds; undefined: the scenario's own, else the default. */
  timeoutMs?: number
  /** Run every scenario on these hosts (the first explores and is judged, the others are compared); undefined: each scenario's own. */
  hosts?: readonly Host[]
  /** The folder the report files go to. */
  report: string
  /** The report formats written there. */
  format: readonly ReportFormat[]
  /** The folder of every golden; undefined: each beside its scenario. */
  goldens?: string
  /** Write every golden anew. */
  updateGoldens: boolean
  /** Keep the working folder of every interleaving whose outcome is not the expected one. */
  keepWorkdirs: boolean
  /** Whether this is CI (`CI`): a missing golden fails instead of being written. */
  ci: boolean
  /** `loadrace test`: how many times each side of a test whose results differ is rerun alone before it is called `pins-one`. */
  reruns: number
  /** `loadrace test`: how many tests whose results differ are decided side by side, each by its own reruns alone. */
  jobs: number
  /** `loadrace test`: the JUnit file the command writes, read for per-test results; undefined: loadrace adds its own reporter. */
  junit?: string
  /** `loadrace test`: a replay — the order each named configuration's loader releases its entries in, for one run of the command. */
  order?: Readonly<Record<string, readonly string[]>>
  /** `loadrace test`: with `order`, the full name of the one test to run alone. */
  only?: string
}

/** The name of a knob: a field of `Settings`. */
export type KnobName = keyof Settings
