import type { GenerateOptions } from './contract.ts'

/** The `llm` service's seam of an ordering variant: a rebuild of each dispatched request. */
export interface StreamOrdering {
  /** Applied inside `llm.stream()` to a dispatched request, after the header was logged; returns a rebuilt request. */
  readonly streamOrder?: (request: GenerateOptions) => GenerateOptions
}

/** The canonical `llm.stream()` (dsh): the request is dispatched as it was built. */
export const CANONICAL_STREAM_ORDERING: StreamOrdering = Object.freeze({})
