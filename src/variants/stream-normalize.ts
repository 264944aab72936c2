import { markAgentLoopRequest } from '../agent/request-marker.ts'
import { deepFreeze } from '../runtime/freeze.ts'
import { compareCodeUnits, sortByName } from '../system-prompt/tool-order.ts'
import type { Variant } from './variant.ts'

/** The rejected alternative of normalizing tool order inside llm.stream(), after the header was logged. */
export const streamNormalize: Variant = {
  name: 'stream-normalize',
  summary: 'llm.stream() rebuilds the request with tools sorted by name after the header was logged (rejected: the flake survives in the log); '
    + 'the rebuilt envelope is re-marked so the reconstruction invariant stays armed and reports the header/request mismatch',
  compareNames: null,
  sortKnownNames: true,
  streamOrder: request => {
    if (request.tools === undefined) return request
    // Same keys in the same order, only `tools` replaced.
    return markAgentLoopRequest(deepFreeze({ ...request, tools: sortByName(request.tools, compareCodeUnits) }))
  },
}
