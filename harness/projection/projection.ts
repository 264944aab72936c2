import { createHash } from 'node:crypto'
import type { LiveRecord, Observation } from '../targets/target.ts'
import type { Crash, Outcome, StuckInfo } from '../verdict/outcome.ts'

/** A loader entry whose plugin never became active, and why. */
export interface InactiveEntry {
  /** The entry's label (its id; see `scenario/entry-labels.js`). */
  id: string
  /** `waiting`: a service it injects never appeared; `failed`: its config was rejected or apply threw; `not-imported`: its module failed to import; `disabled`. */
  reason: 'waiting' | 'failed' | 'not-imported' | 'disabled' | string
  /** With `waiting`: the services it still waits for. */
  waiting?: string[]
}

/**
 * Everything model-facing (and everything a misconfiguration shows) of one
 * interleaving. Two interleavings are equivalent exactly when their
 * projections serialise to the same bytes.
 */
export interface Projection {
  outcome: Outcome
  /** The request-header fold after the last turn; null when no header was logged. */
  header: unknown
  /** Every dispatched request, `signal` removed, key order as built. */
  requests: unknown[]
  /** The session log, `time` removed (ids come from a deterministic generator). */
  events: unknown[]
  /** agent/status transitions and agent/error records, in emission order. */
  live: LiveRecord[]
  errors: {
    /** Errors logged while loading plugins, in logging order. */
    load: string[]
    /** agent/error messages, in order. */
    turn: string[]
  }
  stuck: StuckInfo | null
  /** Loader entries not active after boot, by label (empty for a stuck or crashed interleaving). */
  inactive: InactiveEntry[]
  /** How the system crashed, ending the interleaving (outcome `crashed`); absent otherwise. */
  crash?: Crash
}

/** `value` with `key` dropped at the top level (other keys in their original order); not a deep copy. */
function omitting(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const result: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(value)) {
    if (name !== key) result[name] = item
  }
  return result
}

export interface ProjectionInput {
  observation: Observation | undefined
  loadErrors: readonly string[]
  stuck: StuckInfo | null
  /** Defaults to none. */
  inactive?: readonly InactiveEntry[]
  /** The system's crash, when it crashed. */
  crash?: Crash
}

/**
 * The projection's fields over the live observation (dropped keys removed,
 * nothing copied deeply): serialising it gives the projection's bytes.
 */
function projectionView(input: ProjectionInput): Record<keyof Projection, unknown> {
  const { observation, loadErrors, stuck } = input
  const live = observation ? [...observation.live] : []
  const turnErrors = live.flatMap(record => record.event === 'agent/error' || record.event === 'client/error' ? [record.message] : [])
  const outcome: Outcome = input.crash
    ? 'crashed'
    : stuck
    ? 'stuck'
    : loadErrors.length > 0 || !observation
      ? 'load-error'
      : turnErrors.length > 0 ? 'turn-error' : 'completed'
  return {
    outcome,
    header: observation?.header === undefined ? null : observation.header,
    requests: (observation?.requests ?? []).map(request => omitting(request, 'signal')),
    events: (observation?.events ?? []).map(event => omitting(event, 'time')),
    live,
    errors: { load: [...loadErrors], turn: turnErrors },
    stuck,
    inactive: [...input.inactive ?? []],
    // Absent unless it crashed: the bytes of every other interleaving stay as they were.
    crash: input.crash === undefined ? undefined : { ...input.crash },
  }
}

/** The projection, its bytes and their hash. */
export interface ProjectedBytes {
  /** Parsed back from the bytes: JSON-safe, sharing nothing with the live system. */
  projection: Projection
  json: string
  /** {@link hashOf} `json`. */
  hash: string
}

/**
 * An enumerable property of `target` read from `bytes` when first read: most
 * interleavings' projections are only hashed, and a sweep reads a few parts
 * (outcome, header tool names, stuck) of the rest.
 */
function defineParsedOnRead(target: object, key: string, bytes: string): void {
  let parsed: { value: unknown } | undefined
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (parsed ??= { value: JSON.parse(bytes) }).value,
  })
}

/**
 * The projection's bytes, serialised and hashed part by part — the same bytes
 * and hash as one `JSON.stringify` of the whole (a part `JSON.stringify` drops
 * is dropped here too) — and each part parsed back only when first read. The
 * whole text is the parts' concatenation, left for V8 to flatten only if
 * someone reads it: V8 builds `JSON.stringify`'s result as a rope, and for text
 * with any character beyond Latin-1 (the dashes in real tool descriptions),
 * flattening a projection of ~80 000 characters costs more than serialising it.
 */
function projectionByParts(view: Record<keyof Projection, unknown>): ProjectedBytes {
  const hash = createHash('sha256')
  const projection: Record<string, unknown> = {}
  let json = ''
  for (const [key, value] of Object.entries(view)) {
    const bytes = JSON.stringify(value) as string | undefined
    if (bytes === undefined) continue
    const part = `${json === '' ? '{' : ','}${JSON.stringify(key)}:${bytes}`
    hash.update(part)
    defineParsedOnRead(projection, key, bytes)
    json += part
  }
  hash.update('}')
  return { projection: projection as unknown as Projection, json: `${json}}`, hash: hash.digest('hex') }
}

/**
 * The projection of one interleaving, its bytes and their hash, from one
 * serialisation of what it observed. The projection is parsed back from the
 * bytes (part by part, when read), so it is JSON-safe and shares nothing with
 * the live system.
 */
export function projectWithBytes(input: ProjectionInput): ProjectedBytes {
  const view = projectionView(input)
  return projectionByParts(view)
}

/** Builds the projection of one interleaving from what it observed. */
export function project(input: ProjectionInput): Projection {
  return projectWithBytes(input).projection
}

/** The projection whose bytes are `json` (what {@link serialise} and a run's record hold). */
export function parseProjection(json: string): Projection {
  return JSON.parse(json) as Projection
}

/** The projection's bytes: JSON with the system's own key order (key order is part of a request's bytes). */
export function serialise(projection: Projection): string {
  return JSON.stringify(projection)
}

/** sha256 (hex) of the serialised projection: the name of an output. */
export function hashOf(json: string): string {
  return createHash('sha256').update(json).digest('hex')
}

/** The header's tool names (empty when no header or no tools). */
export function headerToolNames(projection: Projection): string[] {
  const header = projection.header as { tools?: { name?: unknown }[] } | null
  return (header?.tools ?? []).map(tool => String(tool.name))
}
