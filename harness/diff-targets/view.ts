import type { Crash, Outcome, StuckInfo } from '../verdict/outcome.ts'
import type { Projection } from '../projection/projection.ts'
import type { LiveRecord, TargetName } from '../targets/target.ts'
import { normalise } from './normalisations.ts'

/**
 * What the two targets must agree on, of one interleaving: the whole
 * projection except the session log's payloads, which are reduced to the
 * sequence of event types (the log repeats the header and the requests, and
 * its envelope layout is each session store's own). Compared byte for byte
 * after the declared normalisations (`NORMALISATIONS`).
 */
export interface ComparedView {
  outcome: Outcome
  /** The request-header fold: tool names, descriptions, parameters, key order. */
  header: unknown
  /** Every dispatched request, `signal` removed. */
  requests: unknown[]
  /** The type of every session event, in order. */
  eventTypes: string[]
  /** agent/status transitions and agent/error records, in order. */
  live: LiveRecord[]
  /** Load errors and agent/error messages, each in order. */
  errors: { load: string[], turn: string[] }
  stuck: StuckInfo | null
  /** How the system crashed; null when it did not. */
  crash: Crash | null
}

/** The parts of the compared view, in the order differences are listed. */
export const COMPARED_PARTS = ['outcome', 'header', 'requests', 'eventTypes', 'live', 'errors', 'stuck', 'crash'] as const satisfies readonly (keyof ComparedView)[]

/** The compared view of a projection `target` produced, normalised (the projection is not modified). */
export function comparedView(projection: Projection, target: TargetName): ComparedView {
  const view: ComparedView = structuredClone({
    outcome: projection.outcome,
    header: projection.header,
    requests: projection.requests,
    eventTypes: projection.events.map(event => String((event as { type?: unknown }).type)),
    live: projection.live,
    errors: projection.errors,
    stuck: projection.stuck,
    crash: projection.crash ?? null,
  })
  normalise(view, target)
  return view
}
