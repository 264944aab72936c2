/**
 * The normalised shape of one scenario file: a race to check, the system it
 * runs against, and what the run must show. Produced by `loadScenario()`.
 */
import type { VariantName } from '../targets/catalogue.ts'
import type { ModuleOutcome } from './modules.ts'
import type { Outcome } from '../verdict/outcome.ts'
import type { System } from '../system/system.ts'
import type { Requirements } from '../hosts/requirements.ts'
import type { PinRole } from '../targets/definition.ts'

/**
 * Which app composition hosts the agent: an RFC-era chain, `none` (the base
 * services only), or `entries` — the application the cordis.yml of `entries:`
 * mounts is the whole system under test, and loadrace mounts nothing of its own.
 */
export const APP_NAMES = ['stdio-agent', 'acp-agent', 'agent-core', 'none', 'entries'] as const
export type AppName = typeof APP_NAMES[number]

/** Which implementation runs: loadrace's reference or the published dsh packages. */
export type { TargetName } from '../targets/target.ts'
import type { BaseConfig, ScriptedModelSpec, TargetName } from '../targets/target.ts'
export type { BaseConfig } from '../targets/target.ts'

/** How plugin entries reach the loader: in memory, or through a written `cordis.yml` and `cordis:include`. */
export const LOADER_MODES = ['memory', 'include'] as const
export type LoaderMode = typeof LOADER_MODES[number]

/**
 * Where a scenario's interleavings run: `shared` (default), one after another
 * in a worker process that imports each module once; `fresh`, each in a
 * process of its own, as a suite that starts the application once per test
 * runs it, so that state a module keeps never carries over.
 */
export const PROCESS_MODES = ['shared', 'fresh'] as const
export type ProcessMode = typeof PROCESS_MODES[number]

/** Whether the base composition is mounted on the root directly or races as loader entries too. */
export const SERVICE_MODES = ['root', 'entries'] as const
export type ServiceMode = typeof SERVICE_MODES[number]

/** Ways a faulty plugin misbehaves. */
export const FAULT_KINDS = ['import-rejects', 'apply-throws', 'apply-hangs', 'import-hangs', 'leak'] as const
export type FaultKind = typeof FAULT_KINDS[number]

/** Loader entry ids the base composition uses when `services: entries`; plugin ids may not take them. */
export { RESERVED_SERVICE_IDS } from '../targets/catalogue.ts'

/** Inclusive bounds of `turns`. */
export const TURN_RANGE = { min: 1, max: 20 } as const

/** Inclusive bounds of `timeout`, in milliseconds. */
export const TIMEOUT_RANGE = { min: 100, max: 600_000 } as const

/** One tool as a synthetic tool plugin registers it (the model-facing schema). */
export interface ToolSpec {
  name: string
  /** Defaults to `"<name> tool"`. */
  description: string
  /** A JSON-schema object; defaults to `{ type: 'object', properties: {} }`. */
  parameters: Record<string, unknown>
}

/** Registration guard of a tool plugin: register only if every `after` plugin has and no `before` plugin has. */
export interface RegistrationCondition {
  after: string[]
  before: string[]
}

/** What a `system-prompt/assemble` listener plugin does to the tool list. */
export interface ListenerSpec {
  /** Tool names to add at the front. */
  prepend: string[]
  /** Tool names to add at the end. */
  append: string[]
  /** Whether to reverse the list. */
  reverse: boolean
  /** Tool names to drop. */
  remove: string[]
}

/** Keys every plugin entry may carry, whatever its kind. */
interface PluginCommon {
  /** The loader entry id, unique within the file. */
  id: string
  /** Services the entry injects (cordis.yml style); `[]` when omitted. */
  inject: string[]
  /** Contribution weight read by the `per-plugin-weight` variant; absent when omitted. */
  weight?: number
}

/** A synthetic tool plugin: registers its batches with a scheduling point between batches. */
export interface ToolsPluginSpec extends PluginCommon {
  kind: 'tools'
  /** Never empty, no batch empty. A `tools:` list is one batch. */
  batches: ToolSpec[][]
  when?: RegistrationCondition
  /** A fault the tool plugin also exhibits. */
  fault?: FaultKind
}

/** A real cordis plugin module, imported while loading the scenario. */
export interface ModulePluginSpec extends PluginCommon {
  kind: 'module'
  /** The module specifier as written (a relative path or a package specifier). */
  module: string
  /** The module's absolute path. */
  path: string
  /** The entry's config, absent when omitted. */
  config?: Record<string, unknown>
  /**
   * What the import gave, once per process: the module namespace the import
   * hook hands the real loader (its `unwrapExports` picks the plugin; the
   * scenario loader checked the shape), or the load error the hook rethrows.
   */
  outcome: ModuleOutcome
  /** Set for a cordis.yml entry naming the include plugin by package: it mounts a nested, scheduled tree. */
  include?: true
}

/** A `system-prompt/assemble` listener plugin. */
export interface ListenerPluginSpec extends PluginCommon {
  kind: 'listener'
  listener: ListenerSpec
}

/** A faulty plugin that contributes nothing else. */
export interface FaultPluginSpec extends PluginCommon {
  kind: 'fault'
  fault: FaultKind
}

/** One plugin entry of a scenario, discriminated by `kind`. */
export type PluginSpec = ToolsPluginSpec | ModulePluginSpec | ListenerPluginSpec | FaultPluginSpec

/** One tool the request header must carry: its name, and, when given, exactly this description and these parameters. */
export interface ExpectedTool {
  name: string
  description?: string
  /** Compared as JSON, key order included (key order is part of the request bytes). */
  parameters?: Record<string, unknown>
}


/** What every interleaving of the scenario must show. */
export interface Expectation {
  outcome: Outcome
  /** The expected model-facing tool order of the request header; absent when not checked. */
  tools?: string[]
  /** The request header's tools, in order, with their descriptions and parameters where given; checked in every interleaving. */
  header?: ExpectedTool[]
  /** Labels of the loader entries expected never to become active; every other entry must. */
  inactive: string[]
  /** A substring of the turn or load error; only with `turn-error` or `load-error`. */
  error?: string
  /** `false`: the scenario demonstrates a race the sweep must find. Defaults to `true`. */
  deterministic: boolean
  /** With `snapshot:`: what the pinned files must be of the explored outputs (`holds` unless the file says otherwise). */
  snapshot?: SnapshotStatus
}

/** What a dsh snapshot's pinned files are of the explored outputs: all of them, some, or none. */
export const SNAPSHOT_STATUSES = ['holds', 'pins-one', 'matches-none'] as const
export type SnapshotStatus = typeof SNAPSHOT_STATUSES[number]

/** The app config under test; `toolOrder` is ABSENT when the file omits it (never defaulted to `[]`). */
export interface ScenarioAppConfig {
  persona?: string
  /** Any list of strings: whether it is a valid tool order is for the system to decide. */
  toolOrder?: string[]
}

/** A cordis.yml the scenario mounts (`entries:`), read before the first interleaving. */
export interface EntriesSource {
  /** Absolute path of the file, mounted through `cordis:include` in every interleaving. */
  file: string
  /** Labels of every entry of the tree (nested includes and groups too), in file order. */
  labels: string[]
  /** Labels of the enabled entries of the file's own list whose import the loader asks for at once. */
  initial: string[]
}

/** One normalised scenario. */
export interface Scenario {
  /** `[a-z0-9-]+`; defaults to the file name without its extension. */
  name: string
  /**
   * The host the scenario runs on in this sweep (`harness/hosts/`), when it is
   * not this very process: a run setting, never read from the file (see
   * `onHost`). Replay tokens name it.
   */
  runsOn?: string
  /** The file path as the user gave it. */
  file: string
  /** Absolute directory of the file; module paths resolve against it. */
  dir: string
  /** The system under test as the project has it: its cordis, loader and include (loadrace's own where it has none). */
  system: System
  /** `''` when omitted. */
  description: string
  app: AppName
  config: ScenarioAppConfig
  base: BaseConfig
  variant: VariantName
  target: TargetName
  turns: number
  /** Mount the reconstruction invariant. */
  invariant: boolean
  loader: LoaderMode
  services: ServiceMode
  /** Per-interleaving timeout in milliseconds; absent when omitted. */
  timeout?: number
  /** The most interleavings this scenario runs (capping `--budget`); absent when omitted. */
  budget?: number
  /** The host the file says the scenario runs on (`host:`), unless a sweep says otherwise; absent when omitted. */
  host?: string
  /** `fresh`: every interleaving runs in a process of its own (`process:`); absent when they share one. */
  process?: 'fresh'
  /** Variables set in the system's environment for every interleaving (`env:`), beside its own `HOME`. */
  env: Readonly<Record<string, string>>
  /** The absolute folder of the dsh snapshot the application is judged against (`snapshot:`), when there is one. */
  snapshot?: string
  /**
   * The pinned files that judge the snapshot when they are not the folder's
   * own (`pinned:`): its header class's pin, absolute paths, and how the run
   * is held to them. Absent: the folder's own files, which it pins itself.
   */
  pinned?: { role: PinRole, toolSchemas: string, systemPrompt: string }
  /** What the machine a sweep runs on must have, else the scenario is skipped (`requires:`); absent when the file requires nothing. */
  requires?: Requirements
  /** loadrace's scripted model in place of the application's live adapter entry (`model:`), when the file names one. */
  model?: ScriptedModelSpec
  /**
   * The loader entries whose imports are scheduled, in file order. With
   * `entries:`, one module entry per importing entry of the cordis.yml
   * (its id the entry's label); never empty otherwise.
   */
  plugins: PluginSpec[]
  /** The cordis.yml the loader mounts instead of `plugins` written out (`loader` is then `include`). */
  entries?: EntriesSource
  expect: Expectation
}
