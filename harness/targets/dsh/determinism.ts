/**
 * Deterministic time and ids for what the published packages observe.
 *
 * The packages read the wall clock (`Date.now`, for event `time`) and mint
 * message ids with `crypto.randomUUID`, with no way to inject either. Ids the
 * target supplies itself (the session id, user message ids) come from the
 * interleaving's environment directly; whatever the packages minted is
 * rewritten afterwards: each distinct UUID receives the environment's next id
 * when it is first seen, and each event's `time` the environment's next
 * `now()`. The random keys a spilled tool output is filed under
 * (`spill/session-<12 hex>/<12 hex>-NAME`, which dsh's own harness writes as
 * a spill locator before it compares) are rewritten the same way: each
 * distinct key becomes the next of a counter, in order of first sight.
 * Rewriting is copy-on-write, so a value with nothing to rewrite is
 * returned as the very same object (a dispatched request keeps its identity
 * and frozenness), and copies of frozen values are frozen.
 */
import type { TargetEnvironment } from '../target.ts'

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
/** A spill file's place: the session folder's key and the file's key, each 12 random hex digits. */
const SPILL_KEYS = /([\\/]\.?spill[\\/]session-)([0-9a-f]{12})([\\/])([0-9a-f]{12})-/g

function isPlainRecord(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function sealedLike<T extends object>(original: object, copy: T): T {
  return Object.isFrozen(original) ? Object.freeze(copy) : copy
}

/** A hook result's data with its `durationMs` written as 0 (when it has one). */
function withoutDuration(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || !('durationMs' in data)) return data
  return sealedLike(data, { ...data, durationMs: 0 })
}

/** Rewrites the nondeterministic parts of one run's observations; use one instance per run, in observation order. */
export class Determinizer {
  private readonly ids = new Map<string, string>()
  private readonly spillKeys = new Map<string, string>()
  private readonly paths: readonly (readonly [string, string])[]

  /**
   * `paths`: folders of the interleaving (its working directory, its
   * temporary folder) and the token each is written as, so that what the
   * system says about where it runs is the same in every interleaving; the
   * longest is replaced first.
   */
  constructor(private readonly environment: TargetEnvironment, paths: readonly (readonly [string, string])[] = []) {
    this.paths = [...paths].sort((a, b) => b[0].length - a[0].length)
  }

  /** The id standing in for `uuid` (allocated from the environment on first sight). */
  private idFor(uuid: string): string {
    const key = uuid.toLowerCase()
    let id = this.ids.get(key)
    if (id === undefined) {
      id = this.environment.newId()
      this.ids.set(key, id)
    }
    return id
  }

  /** `text` with the interleaving's folders written as their tokens and every UUID-shaped substring replaced. */
  text(text: string): string {
    let out = text
    for (const [path, token] of this.paths) if (out.includes(path)) out = out.split(path).join(token)
    return out.replace(UUID, uuid => this.idFor(uuid))
      .replace(SPILL_KEYS, (_match, folder: string, session: string, separator: string, file: string) => `${folder}${this.spillKeyFor(session)}${separator}${this.spillKeyFor(file)}-`)
  }

  /** The key standing in for a random spill key: the next of a counter, 12 hex digits, on first sight. */
  private spillKeyFor(key: string): string {
    let stand = this.spillKeys.get(key)
    if (stand === undefined) {
      stand = (this.spillKeys.size + 1).toString(16).padStart(12, '0')
      this.spillKeys.set(key, stand)
    }
    return stand
  }

  /** `value` with every UUID-shaped substring of its strings replaced; non-plain objects (an AbortSignal, say) are kept as they are. */
  value<T>(value: T): T {
    return this.rewrite(value) as T
  }

  /**
   * A session event with its ids rewritten and its `time` taken from the
   * environment clock. A hook's measured run time (`hook/result`'s
   * `durationMs`: how long its command took, in real time) is written as 0,
   * as dsh's snapshot harness writes it before it compares.
   */
  event(event: Record<string, unknown>): Record<string, unknown> {
    const entries = Object.entries(event).map(([key, item]): [string, unknown] =>
      [key, key === 'time' ? this.environment.now() : key === 'data' && event.type === 'hook/result' ? this.rewrite(withoutDuration(item)) : this.rewrite(item)])
    return sealedLike(event, Object.fromEntries(entries))
  }

  private rewrite(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value)
    if (typeof value !== 'object' || value === null) return value
    if (Array.isArray(value)) return this.rewriteArray(value)
    if (!isPlainRecord(value)) return value
    return this.rewriteRecord(value)
  }

  private rewriteArray(array: readonly unknown[]): unknown {
    let changed = false
    const items = array.map((item) => {
      const next = this.rewrite(item)
      if (next !== item) changed = true
      return next
    })
    return changed ? sealedLike(array, items) : array
  }

  private rewriteRecord(record: Record<string, unknown>): unknown {
    let changed = false
    const entries = Object.entries(record).map(([key, item]): [string, unknown] => {
      const next = this.rewrite(item)
      if (next !== item) changed = true
      return [key, next]
    })
    return changed ? sealedLike(record, Object.fromEntries(entries)) : record
  }
}
