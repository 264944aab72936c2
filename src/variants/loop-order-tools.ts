import { compareCodeUnits, sortByName } from '../system-prompt/tool-order.ts'
import type { Variant } from './types.ts'

/** The rejected alternative of an orderTools() step the loop calls before logging the header. */
export const loopOrderTools: Variant = {
  name: 'loop-order-tools',
  summary: 'the agent loop sorts the assembled tools by name before it logs the header (rejected: policy at a distance, every request composer must remember the call)',
  compareNames: null,
  sortKnownNames: true,
  loopOrder: tools => sortByName(tools, compareCodeUnits),
}
