import { compareCodeUnits } from '../system-prompt/tool-order.ts'
import type { Variant } from './variant.ts'

/** The rejected alternative of sorting in the registry layer instead of the assembly. */
export const registrySort: Variant = {
  name: 'registry-sort',
  summary: 'the registry returns schemas sorted by name; the assembly keeps provider order (rejected: ordering belongs to prompt composition, other providers stay unsorted)',
  registryOrder: records => [...records].sort((a, b) => compareCodeUnits(a.definition.name, b.definition.name)),
  compareNames: null,
  sortKnownNames: true,
}
