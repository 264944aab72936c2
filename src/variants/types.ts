import type { GenerateOptions, ToolSchema } from '../llm/types.ts'
import type { PromptAssembly } from '../system-prompt/types.ts'
import type { ToolRecord } from '../tools/types.ts'

/** Every ordering policy loadrace can put under test: the RFC's decision and the alternatives it rejected. */
export const VARIANT_NAMES = [
  'canonical',
  'registration-order',
  'registry-sort',
  'dependency-linearization',
  'per-plugin-weight',
  'loop-order-tools',
  'stream-normalize',
  'locale-compare',
  'unsorted-known-names',
  'listener-random',
] as const

export type VariantName = typeof VARIANT_NAMES[number]

/**
 * An ordering policy: where (and whether) the model-facing tool order is
 * decided. The reference reads the active variant from the optional `variant`
 * service; with none provided it behaves as `canonical`, which is dsh.
 * Every hook is optional except the two the assembly always needs.
 */
export interface Variant {
  readonly name: VariantName
  /** One line: what this policy does, tied to the RFC's text. */
  readonly summary: string
  /** Reorders the tool registry's records before its provider returns schemas. Absent: registration order. */
  readonly registryOrder?: (records: readonly ToolRecord[]) => ToolRecord[]
  /**
   * The comparator the assembly sorts names with (the lexicographic default and
   * the unlisted tools at the rest entry). `null`: the assembly keeps collection order.
   */
  readonly compareNames: ((a: string, b: string) => number) | null
  /** Whether the unknown-name error lists the known tools sorted (dsh) or in collection order. */
  readonly sortKnownNames: boolean
  /** Applied by the agent loop to the assembled tools, with SystemPrompt's configured `toolOrder`, before it builds and logs the header. */
  readonly loopOrder?: (tools: readonly ToolSchema[], toolOrder: readonly string[] | undefined) => ToolSchema[]
  /** Applied inside `llm.stream()` to a dispatched request, after the header was logged; returns a rebuilt request. */
  readonly streamOrder?: (request: GenerateOptions) => GenerateOptions
  /** A `system-prompt/assemble` waterfall listener the composition installs for this variant. */
  readonly assembleListener?: (assembly: PromptAssembly) => PromptAssembly
}
