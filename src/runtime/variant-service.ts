import type { Context } from '@deepseek-ai/cordis'

/**
 * The optional cordis service `variant`: the ordering policy under test.
 *
 * Every service that has a policy seam (the tool registry's order, the
 * assembly's name ordering, the loop's and `llm.stream()`'s reordering)
 * declares that seam and its canonical default in its own folder and reads it
 * here, so no service depends on the policies in `variants/`, which fill every
 * seam and sit above all services. The names a provided variant may carry
 * live here because the reader checks them.
 */

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

/** Whether `name` names a variant. */
export function isVariantName(name: unknown): name is VariantName {
  return typeof name === 'string' && (VARIANT_NAMES as readonly string[]).includes(name)
}

/**
 * The seam `Seam` of the variant in force for `ctx`: the provided `variant`
 * service, or `canonical` (the caller's canonical seam, dsh's behaviour) when
 * no such service is active. A provided value is checked to be a variant (a
 * known name and the `sortKnownNames` flag every variant sets), not hook by
 * hook: a `variant` service provides a whole variant, which fills every seam.
 */
export function variantSeam<Seam extends object>(ctx: Context, canonical: Seam): Seam {
  // `ctx.reflect.get` is what the `ctx.get` mixin forwards to; the direct call
  // skips the mixin lookup, which builds an Error (with its stack) per call.
  // The assembly reads the variant on every model step.
  const provided: unknown = ctx.reflect.get('variant')
  if (provided === undefined || provided === null) return canonical
  if (!isVariant(provided)) throw new TypeError('the "variant" service must provide a Variant object')
  return provided as Seam
}

function isVariant(value: unknown): value is object {
  return typeof value === 'object' && value !== null
    && isVariantName(Reflect.get(value, 'name'))
    && typeof Reflect.get(value, 'sortKnownNames') === 'boolean'
}
