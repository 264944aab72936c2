/**
 * A target as the registry (`registry.ts`) holds it: everything the harness
 * knows of one system under test without loading it — its name, the variants
 * it runs, the host it prefers, what a report says of it, the snapshot suite
 * it reads — and how to load it. Nothing outside `harness/targets/` names a
 * target: it asks the target's definition.
 */
import type { Requirements } from '../hosts/requirements.ts'
import type { VariantName } from './catalogue.ts'
import type { Target } from './target.ts'

/**
 * How a snapshot's headers are held to pinned files: `pin` — the run pins its
 * header class, so its headers give the files whole; `classmate` — another
 * snapshot pins the class, and every header the run logs must be the files'
 * initial header (a run that logs none has nothing to differ).
 */
export const PIN_ROLES = ['pin', 'classmate'] as const
export type PinRole = typeof PIN_ROLES[number]

/** The pinned files a snapshot is judged against: where each is, its bytes, and how the run is held to them. */
export interface SnapshotPins {
  role: PinRole
  toolSchemas: { path: string, text: string }
  systemPrompt: { path: string, text: string }
}

/** A pinned file an interleaving's headers do not give: which one, its pinned bytes and what the run logged. */
export interface PinDifference {
  file: 'toolSchemas' | 'systemPrompt'
  pinned: string
  logged: string
}

/** The pinned files of a snapshot's header class, whose pin they are (absolute paths), and how the snapshot is held to them. */
export interface ClassPin {
  headerClass: string
  pin: string
  role: PinRole
  systemPrompt: string
  toolSchemas: string
}

/** What a snapshot suite's table says of one snapshot: the live configuration it was recorded with (absolute), its variables, and its run conditions. */
export interface SnapshotTableEntry {
  name: string
  config?: string
  env: Record<string, string>
  /** Its header class (absent: the default class), whether it pins it, and the pins whose files a pin borrows. */
  headerClass?: string
  pinsHeader?: true
  systemPromptSource?: string
  toolSchemasSource?: string
  /** What the table's run conditions ask of the machine; absent when it sets none. */
  requires?: Requirements
  /** Run conditions the table sets that loadrace does not know how to check. */
  unknownConditions?: string[]
}

/** A target's snapshot suite: folders that pin what its application shows its model. */
export interface TargetSnapshots {
  /** What a scenario's `snapshot:` may name, for the error line. */
  readonly allowed: string
  /** What it may name when the scenario has no `pinned:`, for the error line. */
  readonly allowedUnpinned: string
  /** The names of the pinned files, as a finding shows them. */
  readonly files: { readonly toolSchemas: string, readonly systemPrompt: string }
  /**
   * Whether the target's own suite starts the application once per snapshot
   * test: its scenarios then run every interleaving in a process of its own
   * (`process: fresh`), so that state a module keeps is as fresh as there.
   */
  readonly processPerTest: boolean
  /** Why `dir` is not a snapshot folder the application can be judged against, or undefined when it is. */
  problem(dir: string): string | undefined
  /** Why the folder `dir` pins no header of its own (it is then judged by its class's pin), or undefined when it does. */
  pinsProblem(dir: string): string | undefined
  /** The pinned files the snapshot at `dir` is judged against: `pinned`'s (its class pin's), else its own (throws when it has none). */
  pins(dir: string, pinned?: { role: PinRole, toolSchemas: string, systemPrompt: string }): SnapshotPins
  /** The pinned files an interleaving's session log does not give, as the suite compares them. */
  pinDifferences(events: readonly unknown[], pins: SnapshotPins): PinDifference[]
  /** The pinned files of `name`'s header class in `table`, found under the snapshots folder `dir`; or why there are none. */
  classPin(name: string, table: ReadonlyMap<string, SnapshotTableEntry>, dir: string): ClassPin | { problem: string }
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
