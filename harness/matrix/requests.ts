import type { Projection } from '../projection/projection.ts'

import { INVARIANT_FAILURE } from './rfc.ts'

/**
 * How the dispatched requests of several outputs compare: all the same;
 * the same among the outputs that dispatched, the others having dispatched
 * nothing because the reconstruction invariant failed their turns; or not.
 */
export type RequestAgreement = 'identical' | 'identical-or-invariant' | 'different'

/** Whether an output's turns were stopped by the reconstruction invariant before anything was dispatched. */
function stoppedByInvariant(projection: Projection): boolean {
  return projection.requests.length === 0 && projection.errors.turn.some(message => message.includes(INVARIANT_FAILURE))
}

function allEqual(projections: readonly Projection[]): boolean {
  const first = JSON.stringify(projections[0]?.requests ?? [])
  return projections.every(projection => JSON.stringify(projection.requests) === first)
}

/** Compares the dispatched requests (`projection.requests`) of distinct outputs. */
export function requestAgreement(projections: readonly Projection[]): RequestAgreement {
  if (allEqual(projections)) return 'identical'
  return allEqual(projections.filter(projection => !stoppedByInvariant(projection))) ? 'identical-or-invariant' : 'different'
}
