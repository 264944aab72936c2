import { compareCodeUnits } from '../system-prompt/tool-order.ts'
import type { Variant } from './types.ts'

/** The RFC's decision, i.e. dsh: the assembly canonicalizes the tool list where it is born, before the waterfall. */
export const canonical: Variant = {
  name: 'canonical',
  summary: 'assemble() orders tools (toolOrder, else code-unit lexicographic) before the system-prompt/assemble waterfall — the RFC decision',
  compareNames: compareCodeUnits,
  sortKnownNames: true,
}
