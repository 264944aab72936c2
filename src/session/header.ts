import type { LlmCallConfig, ToolSchema } from '../llm/contract.ts'
import { callConfigEquals } from '../llm/call-config.ts'

export { callConfigEquals }

/**
 * The non-history part of a model request, as the session log records it in
 * `request/header` snapshots.
 */
export interface EpochHeader {
  config: LlmCallConfig
  /** Markers for config fields the adapter filled in; kept only when a marker is `true`. */
  adapterDefaults?: { reasoningEffort?: true, maxTokens?: true }
  system?: string
  tools?: ToolSchema[]
}

/** Why a `request/header` snapshot was logged. */
export type HeaderReason = 'initial' | 'resume' | 'change'

/** Data of a `request/header` event: always a full canonical snapshot. */
export interface RequestHeaderData {
  header: EpochHeader
  reason: HeaderReason
}

/**
 * The canonical form (key order config, adapterDefaults, system, tools):
 * `adapterDefaults` keeps only `true` markers and is dropped when none is left;
 * an empty `system` and an empty `tools` list are dropped.
 */
export function canonicalHeader(header: EpochHeader): EpochHeader {
  const markers = {
    ...header.adapterDefaults?.reasoningEffort === true ? { reasoningEffort: true as const } : {},
    ...header.adapterDefaults?.maxTokens === true ? { maxTokens: true as const } : {},
  }
  return {
    config: header.config,
    ...Object.keys(markers).length > 0 ? { adapterDefaults: markers } : {},
    ...header.system ? { system: header.system } : {},
    ...header.tools && header.tools.length > 0 ? { tools: header.tools } : {},
  }
}

/**
 * Header equality as the fold sees it: call configs equal, adapter-default
 * markers equal, system text equal, and tool lists of equal length whose pairs
 * are equal by `JSON.stringify` — so order- AND key-order-sensitive. Absent and
 * empty tool lists (and system texts) are equal.
 */
export function headerEquals(a: EpochHeader, b: EpochHeader): boolean {
  if (!callConfigEquals(a.config, b.config)) return false
  if ((a.adapterDefaults?.reasoningEffort === true) !== (b.adapterDefaults?.reasoningEffort === true)) return false
  if ((a.adapterDefaults?.maxTokens === true) !== (b.adapterDefaults?.maxTokens === true)) return false
  if ((a.system ?? '') !== (b.system ?? '')) return false
  const left = a.tools ?? []
  const right = b.tools ?? []
  return left.length === right.length
    && left.every((tool, index) => JSON.stringify(tool) === JSON.stringify(right[index]))
}

/**
 * Throws for the header vocabulary removed with the legacy delta codec: the
 * `request/header-delta` event type and the `fallback` reason. `where` names
 * the offending record in the message.
 */
export function assertSupportedHeaderRecord(type: string, data: unknown, where: string): void {
  if (type === 'request/header-delta') {
    throw new Error(`${where} uses unsupported legacy request/header-delta format`)
  }
  if (type === 'request/header' && typeof data === 'object' && data !== null && (data as { reason?: unknown }).reason === 'fallback') {
    throw new Error(`${where} uses unsupported legacy request/header reason "fallback"`)
  }
}

/** The minimal event shape the fold reads. */
export interface HeaderFoldEvent {
  readonly type: string
  readonly seq?: number
  readonly data: unknown
}

/**
 * Folds `request/header` snapshots: each one replaces the state with the
 * canonical form of its header; other events are ignored. Returns the last
 * state, or `from` when there is none (`undefined` without `from`).
 */
export function foldRequestHeader(events: Iterable<HeaderFoldEvent>, from?: EpochHeader): EpochHeader | undefined {
  let state = from
  for (const event of events) {
    assertSupportedHeaderRecord(event.type, event.data, `event ${event.seq ?? '?'}`)
    if (event.type === 'request/header') state = canonicalHeader((event.data as RequestHeaderData).header)
  }
  return state
}
