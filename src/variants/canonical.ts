import { CANONICAL_LOOP_ORDERING } from '../agent/loop-order.ts'
import { CANONICAL_STREAM_ORDERING } from '../llm/stream-order.ts'
import { CANONICAL_NAME_ORDERING } from '../system-prompt/tool-order.ts'
import { CANONICAL_REGISTRY_ORDERING } from '../tools/registry-order.ts'
import type { Variant } from './variant.ts'

/**
 * The RFC's decision, i.e. dsh: the assembly canonicalizes the tool list where it is born, before the waterfall.
 * It is every service's canonical seam, the behaviour each service has when no variant is provided.
 */
export const canonical: Variant = {
  name: 'canonical',
  summary: 'assemble() orders tools (toolOrder, else code-unit lexicographic) before the system-prompt/assemble waterfall — the RFC decision',
  ...CANONICAL_REGISTRY_ORDERING,
  ...CANONICAL_NAME_ORDERING,
  ...CANONICAL_LOOP_ORDERING,
  ...CANONICAL_STREAM_ORDERING,
}
