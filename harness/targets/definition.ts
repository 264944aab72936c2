/**
 * A target as the registry (`registry.ts`) holds it: everything the harness
 * knows of one system under test without loading it — its name, the variants
 * it runs, the host it prefers, what a report says of it, the snapshot suite
 * it reads — and how to load it. Nothing outside `harness/targets/` names a
 * target: it asks the target's definition.
 */
import type { VariantName } from './catalogue.ts'
import type { Target } from './types.ts'

/** The pinned files of a snapshot, byte for byte, or an output laid out as they are. */
export interface PinnedForm {
  toolSchemas: string
  systemPrompt: string
}

/** What a snapshot suite's table says of one snapshot: the live configuration it was recorded with (absolute), and its variables. */
export interface SnapshotTableEntry {
  name: string
  config?: string
  env: Record<string, string>
}

/** A target's snapshot suite: folders that pin what its application shows its model. */
export interface TargetSnapshots {
  /** What a scenario's `snapshot:` may name, for the error line. */
  readonly allowed: string
  /** The names of the pinned files, as a finding shows them. */
  readonly files: { readonly toolSchemas: string, readonly systemPrompt: string }
  /** Why `dir` is not a snapshot folder the application can be judged against, or undefined when it is. */
  problem(dir: string): string | undefined
  /** The pinned files of the snapshot folder `dir` (throws when it is none: ask {@link problem} first). */
  pinned(dir: string): PinnedForm
  /** An interleaving's session log laid out as the pinned files. */
  pinnedFormOf(events: readonly unknown[]): PinnedForm
  /** The snapshot folders under `path`: `path` itself, or its subfolders. */
  foldersIn(path: string): string[]
  /** The suite table's file name, looked for beside the snapshots. */
  readonly tableFile: string
  /** The suite's table: which live configuration and variables each snapshot was recorded with. */
  readTable(file: string): Map<string, SnapshotTableEntry>
  /** The configuration a replay boots, given the live one. */
  replayConfigOf(live: string): string
}

/** A host the target runs on best, and the advice a report gives when it ran elsewhere with supplied Node APIs. */
export interface PreferredHost {
  /** A host name (`node22`). */
  readonly name: string
  /** Appended to the runtime sentence, e.g. `dsh runs on Node 22 (--host node22)`. */
  readonly advice: string
}

export interface TargetDefinition {
  readonly name: string
  /** The ordering variants it implements. */
  readonly variants: readonly VariantName[]
  /** What it says about itself in the bytes it produces: the sentence opening its system prompt, and the model id its scripted model answers as. */
  readonly identity: { readonly text: string, readonly model: string }
  /** Whether it mounts the application a cordis.yml names (`app: entries`). */
  readonly applications: boolean
  /** Whether a bare cordis.yml is swept against it (the first target that says so). */
  readonly bareConfigurations?: boolean
  /** Whether the sweep pins its canonical projections as goldens. */
  readonly goldens: boolean
  /** Whether `diff-targets` compares it (the two that say so, in registration order). */
  readonly compared?: boolean
  /** Whether a report names the system it ran on (the reference runs on loadrace's own, named only when it matters). */
  readonly namesSystem: boolean
  /** The host it runs on when the sweep has runners and that host is here; a report then says which Node each scenario ran on. */
  readonly preferredHost?: PreferredHost
  /** Its snapshot suite, when it has one. */
  readonly snapshots?: TargetSnapshots
  /** Loads its code (the published packages, the reference). */
  load(): Promise<Target>
}

/** A target with a snapshot suite. */
export type SnapshotTarget = TargetDefinition & { readonly snapshots: TargetSnapshots }
