/**
 * The published dsh packages as the registry holds them: the canonical
 * policy only, the applications a cordis.yml names, Node 22 preferred, and
 * dsh's snapshot suite (`snapshot.ts`, `snapshot-suite.ts`). Loading the
 * target (`index.ts`) loads the packages; nothing here does.
 */
import { DEFAULT_VARIANT } from '../catalogue.ts'
import type { TargetDefinition, TargetSnapshots } from '../definition.ts'
import { pinDifferences, readSnapshot, SNAPSHOT_FILES, SnapshotError, snapshotPins } from './snapshot.ts'
import { classPinOf, readSuiteTable, replayConfigOf, snapshotFoldersIn } from './snapshot-suite.ts'

/** Why `read` throws, when it throws a {@link SnapshotError}; undefined when it does not. */
function snapshotProblem(read: () => unknown): string | undefined {
  try {
    read()
    return undefined
  } catch (error) {
    if (error instanceof SnapshotError) return error.message
    throw error
  }
}

/** The text of dsh-system-prompt's `harness:identity` section at 0.1.0-rc.8. */
export const DSH_IDENTITY_TEXT = 'You are an AI agent powered by DeepSeek Harness.'

/** dsh's snapshot tier, read as dsh's own snapshot harness reads it. */
const snapshots: TargetSnapshots = {
  allowed: 'a dsh snapshot folder: input.json with the steps and session.jsonl',
  allowedUnpinned: 'a dsh snapshot folder that pins a header: input.json, session.jsonl, tool-schemas.expected.json and system-prompt.expected.md; or pinned: the files of its header class\'s pin',
  files: { toolSchemas: SNAPSHOT_FILES.toolSchemas, systemPrompt: SNAPSHOT_FILES.systemPrompt },
  // dsh's snapshot harness spawns the application for every test (packages/test-support/acp-snapshot/src/launcher.ts).
  processPerTest: true,
  problem: dir => snapshotProblem(() => readSnapshot(dir)),
  pinsProblem: dir => snapshotProblem(() => snapshotPins(dir)),
  pins: snapshotPins,
  pinDifferences,
  classPin: classPinOf,
  foldersIn: snapshotFoldersIn,
  tableFile: 'acp.snapshot.ts',
  readTable: readSuiteTable,
  replayConfigOf,
}

export const dshDefinition: TargetDefinition = {
  name: 'dsh',
  variants: [DEFAULT_VARIANT],
  identity: { text: DSH_IDENTITY_TEXT, model: 'mock' },
  applications: true,
  // A real configuration names real packages.
  bareConfigurations: true,
  goldens: false,
  compared: true,
  namesSystem: true,
  preferredHost: { name: 'node22', advice: 'dsh runs on Node 22 (--host node22)' },
  snapshots,
  load: () => import('./index.ts').then(module => module.dshTarget),
}
