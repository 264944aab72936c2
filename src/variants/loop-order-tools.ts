import { orderTools, TOOL_ORDER_REST } from '../system-prompt/tool-order.ts'
import { canonical } from './canonical.ts'
import type { Variant } from './variant.ts'

/**
 * The rejected alternative of an orderTools() step the loop calls before
 * logging the header: the assembly leaves collection order, and the loop
 * applies the configured policy (toolOrder with its rest entry, else
 * lexicographic) to whatever the assembly returned — listener additions
 * included, which the canonical assembly never re-sorts.
 */
export const loopOrderTools: Variant = {
  name: 'loop-order-tools',
  summary: 'the agent loop applies the tool-order policy to the assembled tools before it logs the header (rejected: policy at a distance, every request composer must remember the call)',
  compareNames: null,
  sortKnownNames: true,
  loopOrder: (tools, toolOrder) => {
    const present = new Set(tools.map(tool => tool.name))
    // The assembly already rejected unknown names; names restricted away are a normal absence here too.
    const listed = toolOrder?.filter(name => name === TOOL_ORDER_REST || present.has(name))
    return orderTools(tools, listed, present, canonical)
  },
}
