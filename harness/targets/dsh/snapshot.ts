/**
 * dsh's snapshot tier, as dsh's own snapshot harness
 * (`packages/test-support/acp-snapshot`) reads a folder `tests/snapshots/NAME/`:
 * the ACP steps of `input.json`, the recorded `session*.jsonl` the replay
 * model serves, an optional `replay.override.json` and `workspace/`, and the
 * pinned `tool-schemas.expected.json` and `system-prompt.expected.md`; the
 * variables the harness sets for the app; and the normalisations it applies
 * before it compares what the app logged with the pinned files.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { Workdir } from '../target.ts'

/** The ACP steps loadrace drives, as `input.json` writes them. */
export type AcpStep =
  | { op: 'initialize' }
  | { op: 'newSession' }
  | { op: 'prompt', text: string }
  | { op: 'promptContent', content: unknown[] }

/** The steps loadrace can drive. */
export const ACP_STEP_OPS = ['initialize', 'newSession', 'prompt', 'promptContent'] as const

/** A scripted answer to a permission request: the kind of the offered option to select. */
export interface PermissionAnswer {
  kind: string
}

/** A snapshot folder, read. */
export interface Snapshot {
  dir: string
  name: string
  steps: AcpStep[]
  permissionAnswers: PermissionAnswer[]
  /** The pinned files the folder holds itself, byte for byte; a classmate of a header class holds none (its class's pin judges it). */
  pinned: { toolSchemas?: string, systemPrompt?: string }
}

import type { PinDifference, PinRole, SnapshotPins } from '../definition.ts'

export { PIN_ROLES, type PinDifference, type PinRole, type SnapshotPins } from '../definition.ts'

/** The files of a snapshot folder loadrace reads, and what each is. */
export const SNAPSHOT_FILES = {
  input: 'input.json',
  session: 'session.jsonl',
  override: 'replay.override.json',
  toolSchemas: 'tool-schemas.expected.json',
  systemPrompt: 'system-prompt.expected.md',
  workspace: 'workspace',
} as const

/** Raised for a folder that is not a snapshot loadrace can judge an application against; the message says why. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError'
}

function readText(dir: string, file: string, what: string): string {
  const path = join(dir, file)
  try {
    return readFileSync(path, 'utf8')
  } catch {
    throw new SnapshotError(`${dir} has no ${file} (${what})`)
  }
}

function stepOf(value: unknown, index: number, dir: string): AcpStep {
  const step = typeof value === 'object' && value !== null ? value as Record<string, unknown> : {}
  const op = step.op
  if (op === 'initialize' || op === 'newSession') return { op }
  if (op === 'prompt' && typeof step.text === 'string') return { op, text: step.text }
  if (op === 'promptContent' && Array.isArray(step.content)) return { op, content: step.content }
  throw new SnapshotError(`${join(dir, SNAPSHOT_FILES.input)}: step ${index + 1} is ${JSON.stringify(op)}, which loadrace does not drive (it drives ${ACP_STEP_OPS.join(', ')})`)
}

/** Reads the snapshot folder `dir`; a folder missing what the oracle needs is a {@link SnapshotError} naming the file. */
export function readSnapshot(dir: string): Snapshot {
  if (!existsSync(dir)) throw new SnapshotError(`no snapshot folder at ${dir}`)
  let input: unknown
  try {
    input = JSON.parse(readText(dir, SNAPSHOT_FILES.input, 'the ACP steps'))
  } catch (error) {
    if (error instanceof SnapshotError) throw error
    throw new SnapshotError(`${join(dir, SNAPSHOT_FILES.input)} is not JSON: ${(error as Error).message}`)
  }
  const record = typeof input === 'object' && input !== null ? input as Record<string, unknown> : {}
  if (!Array.isArray(record.steps)) throw new SnapshotError(`${join(dir, SNAPSHOT_FILES.input)} has no steps list`)
  readText(dir, SNAPSHOT_FILES.session, 'the recorded session the replay model serves')
  const answers = Array.isArray(record.permissionAnswers) ? record.permissionAnswers : []
  return {
    dir,
    name: dir.split(/[\\/]/).filter(Boolean).at(-1) ?? dir,
    steps: record.steps.map((step, index) => stepOf(step, index, dir)),
    permissionAnswers: answers.map(answer => ({ kind: String((answer as { kind?: unknown }).kind) })),
    pinned: {
      ...existsSync(join(dir, SNAPSHOT_FILES.toolSchemas)) ? { toolSchemas: readText(dir, SNAPSHOT_FILES.toolSchemas, 'the pinned tool schemas') } : {},
      ...existsSync(join(dir, SNAPSHOT_FILES.systemPrompt)) ? { systemPrompt: readText(dir, SNAPSHOT_FILES.systemPrompt, 'the pinned system prompt') } : {},
    },
  }
}

/**
 * The pinned files the snapshot at `dir` is judged against: `pinned`'s (its
 * header class's pin, named by the scenario), else the folder's own, which it
 * pins itself. A folder with neither is a {@link SnapshotError} naming the
 * missing file, as is a pinned file that cannot be read.
 */
export function snapshotPins(dir: string, pinned?: { role: PinRole, toolSchemas: string, systemPrompt: string }): SnapshotPins {
  const read = (path: string, what: string) => {
    try {
      return { path, text: readFileSync(path, 'utf8') }
    } catch {
      throw new SnapshotError(`no ${what} at ${path}`)
    }
  }
  if (pinned !== undefined) {
    return { role: pinned.role, toolSchemas: read(pinned.toolSchemas, 'pinned tool schemas'), systemPrompt: read(pinned.systemPrompt, 'pinned system prompt') }
  }
  return {
    role: 'pin',
    toolSchemas: { path: join(dir, SNAPSHOT_FILES.toolSchemas), text: readText(dir, SNAPSHOT_FILES.toolSchemas, 'the pinned tool schemas: this snapshot pins no header') },
    systemPrompt: { path: join(dir, SNAPSHOT_FILES.systemPrompt), text: readText(dir, SNAPSHOT_FILES.systemPrompt, 'the pinned system prompt: this snapshot pins no header') },
  }
}

/** The recorded child sessions, `session.1.jsonl`, `session.2.jsonl`, … while they run on without a gap. */
function childFiles(dir: string): string[] {
  const present = new Set(readdirSync(dir))
  const files: string[] = []
  for (let n = 1; present.has(`session.${n}.jsonl`); n++) files.push(join(dir, `session.${n}.jsonl`))
  return files
}

/**
 * What dsh's snapshot harness sets for the app (`harness.ts`, `launcher.ts`),
 * with its temporary folders inside the interleaving's: replay mode, the
 * recorded session and child sessions, the override where the folder has one,
 * where sessions and spill files go, and the app's homes.
 */
export function snapshotEnvironment(dir: string, workdir: Workdir): Record<string, string> {
  const children = childFiles(dir)
  const override = join(dir, SNAPSHOT_FILES.override)
  return {
    DSH_SNAPSHOT: 'replay',
    DSH_SNAPSHOT_FILE: join(dir, SNAPSHOT_FILES.session),
    ...existsSync(override) ? { DSH_SNAPSHOT_OVERRIDE: override } : {},
    ...children.length > 0 ? { DSH_SNAPSHOT_CHILD_FILES: children.join(delimiter) } : {},
    DSH_SNAPSHOT_SESSIONS_ROOT: join(workdir.root, 'sessions'),
    DSH_SNAPSHOT_SPILL_ROOT: join(workdir.root, 'spill'),
    DSH_HOME: join(workdir.cwd, '.dsh'),
    DSH_AGENTS_HOME: join(workdir.cwd, '.agents'),
  }
}

/** The folder copied into the working directory before the app starts, when the snapshot has one. */
export function snapshotWorkspace(dir: string): string[] {
  const workspace = join(dir, SNAPSHOT_FILES.workspace)
  return existsSync(workspace) ? [workspace] : []
}

/** One normalisation dsh's snapshot harness applies to a logged header before comparing it (`normalize.ts`), and why. */
export interface SnapshotNormalisation {
  name: string
  /** What is replaced, and by what. */
  rule: string
  reason: string
  apply(text: string): string
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const LOCAL_SPILL = /\{\{cwd\}\}[\\/]\.spill[\\/]session-[0-9a-f]{12}[\\/][0-9a-f]{12}-([A-Za-z0-9._~-]+?)(?=\. Use read with offset\/limit|[\s)]|$)/g
const WORKDIR_SPILL = /\{\{workdir\}\}[\\/]spill[\\/]session-[0-9a-f]{12}[\\/][0-9a-f]{12}-([A-Za-z0-9._~-]+?)(?=\. Use read with offset\/limit|[\s)]|$)/g

/**
 * What loadrace normalises in a logged header before comparing it with a
 * snapshot's pinned files: the rules of dsh's own harness that can touch a
 * header's system prompt and tool schemas on this platform, in its order.
 * The interleaving's working directory is already `{{cwd}}` and its
 * temporary folder `{{workdir}}` in the projection (each interleaving has its
 * own, see `application.ts`).
 */
export const SNAPSHOT_NORMALISATIONS: readonly SnapshotNormalisation[] = [
  {
    name: 'working directory',
    rule: 'the session\'s working directory (every spelling) → {{cwd}}; /private{{cwd}} → {{cwd}}',
    reason: 'each run gets a fresh temporary working directory, which the persona names',
    apply: text => text.split('/private{{cwd}}').join('{{cwd}}'),
  },
  {
    name: 'spill locators',
    rule: '{{cwd}}/.spill/session-<12 hex>/<12 hex>-NAME, and a spill file under the snapshot spill root → {{spillLocator:NAME}}',
    reason: 'spilled tool output is named after the session and a random key',
    apply: text => text.replace(LOCAL_SPILL, (_match, name: string) => `{{spillLocator:${name}}}`).replace(WORKDIR_SPILL, (_match, name: string) => `{{spillLocator:${name}}}`),
  },
  {
    name: 'session ids',
    rule: 'every UUID → {{sessionId}}',
    reason: 'session and message ids are minted with crypto.randomUUID (loadrace writes the ids it rewrites as UUIDs too)',
    apply: text => text.replace(UUID, '{{sessionId}}'),
  },
]

function normalised(value: unknown): unknown {
  if (typeof value === 'string') return SNAPSHOT_NORMALISATIONS.reduce((text, rule) => rule.apply(text), value)
  if (Array.isArray(value)) return value.map(normalised)
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalised(item)]))
  return value
}

/** The headers a session log holds (`request/header` events), in order. */
function headersOf(events: readonly unknown[]): { system?: unknown, tools?: unknown }[] {
  return events.flatMap((event) => {
    const record = event as { type?: unknown, data?: { header?: unknown } }
    return record.type === 'request/header' && typeof record.data?.header === 'object' && record.data.header !== null
      ? [record.data.header as { system?: unknown, tools?: unknown }]
      : []
  })
}

/**
 * The pinned files as an interleaving's session log would write them, dsh's
 * way (`formatSystemPromptSnapshot` and the tool-schema sidecar): the first
 * header's prompt, then each later one under a change marker; the first
 * header's tools and the later ones as changes.
 */
export function pinnedFormOf(events: readonly unknown[]): { toolSchemas: string, systemPrompt: string } {
  return formOf(headersOf(events))
}

function formOf(logged: readonly { system?: unknown, tools?: unknown }[]): { toolSchemas: string, systemPrompt: string } {
  const headers = logged.map(header => normalised(header) as { system?: unknown, tools?: unknown })
  const prompts = headers.flatMap(header => typeof header.system === 'string' ? [header.system] : [])
  const tools = headers.flatMap(header => Array.isArray(header.tools) ? [header.tools] : [])
  const [first = '', ...later] = prompts
  const systemPrompt = `${first.endsWith('\n') ? first : `${first}\n`}${later.map((prompt, index) => `\n<!-- request/header change ${index + 1} -->\n\n${prompt}${prompt.endsWith('\n') ? '' : '\n'}`).join('')}`
  const toolSchemas = `${JSON.stringify({ initial: tools[0] ?? [], changes: tools.slice(1) }, null, 2)}\n`
  return { toolSchemas, systemPrompt }
}

/** The first header of pinned files, as one header alone would write them: the prompt before the first change marker, the initial tools. */
function initialForm(pins: SnapshotPins): { toolSchemas: string, systemPrompt: string } {
  const marker = pins.systemPrompt.text.indexOf('\n<!-- request/header change ')
  let initial: unknown = []
  try {
    initial = (JSON.parse(pins.toolSchemas.text) as { initial?: unknown }).initial ?? []
  } catch {
    // Unreadable pinned tools: the comparison below shows the difference.
  }
  return {
    systemPrompt: marker < 0 ? pins.systemPrompt.text : pins.systemPrompt.text.slice(0, marker),
    toolSchemas: `${JSON.stringify({ initial, changes: [] }, null, 2)}\n`,
  }
}

/**
 * What a session log does not give of the pinned files, as dsh's suite holds
 * a run to them (see {@link PinRole}); empty when it gives them. For a
 * classmate, the first header that differs from the initial pinned one is
 * shown.
 */
export function pinDifferences(events: readonly unknown[], pins: SnapshotPins): PinDifference[] {
  const differing = (pinned: { toolSchemas: string, systemPrompt: string }, logged: { toolSchemas: string, systemPrompt: string }) =>
    (['toolSchemas', 'systemPrompt'] as const).filter(file => pinned[file] !== logged[file]).map(file => ({ file, pinned: pinned[file], logged: logged[file] }))
  if (pins.role === 'pin') return differing({ toolSchemas: pins.toolSchemas.text, systemPrompt: pins.systemPrompt.text }, pinnedFormOf(events))
  const initial = initialForm(pins)
  for (const header of headersOf(events)) {
    const found = differing(initial, formOf([header]))
    if (found.length > 0) return found
  }
  return []
}
