import { compareCodeUnits } from '../system-prompt/tool-order.ts'
import type { Variant } from './variant.ts'

/** Canonical ordering, but the unknown-name error lists known tools in collection order. */
export const unsortedKnownNames: Variant = {
  name: 'unsorted-known-names',
  summary: 'canonical order, but the unregistered-toolOrder error lists known tools unsorted, so the failure text depends on registration order',
  compareNames: compareCodeUnits,
  sortKnownNames: false,
}
