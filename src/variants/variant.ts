import type { LoopOrdering } from '../agent/loop-order.ts'
import type { StreamOrdering } from '../llm/stream-order.ts'
import type { VariantName } from '../runtime/variant-service.ts'
import type { PromptAssembly } from '../system-prompt/prompt.ts'
import type { NameOrdering } from '../system-prompt/tool-order.ts'
import type { RegistryOrdering } from '../tools/registry-order.ts'

export { VARIANT_NAMES, type VariantName } from '../runtime/variant-service.ts'

/**
 * An ordering policy: where (and whether) the model-facing tool order is
 * decided. It fills the seam each service declares and reads from the
 * optional `variant` service (see `runtime/variant-service.ts`); with none
 * provided every service behaves as `canonical`, which is dsh.
 * Every hook is optional except the two the assembly always needs.
 */
export interface Variant extends RegistryOrdering, NameOrdering, LoopOrdering, StreamOrdering {
  readonly name: VariantName
  /** One line: what this policy does, tied to the RFC's text. */
  readonly summary: string
  /** A `system-prompt/assemble` waterfall listener the composition installs for this variant. */
  readonly assembleListener?: (assembly: PromptAssembly) => PromptAssembly
}
