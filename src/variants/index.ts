import type { Context } from '@deepseek-ai/cordis'
import { isVariantName, variantSeam, VARIANT_NAMES } from '../runtime/variant-service.ts'
import type { Variant, VariantName } from './variant.ts'
import { canonical } from './canonical.ts'
import { registrationOrder } from './registration-order.ts'
import { registrySort } from './registry-sort.ts'
import { dependencyLinearization } from './dependency-linearization.ts'
import { perPluginWeight } from './per-plugin-weight.ts'
import { loopOrderTools } from './loop-order-tools.ts'
import { streamNormalize } from './stream-normalize.ts'
import { localeCompare } from './locale-compare.ts'
import { unsortedKnownNames } from './unsorted-known-names.ts'
import { listenerRandom } from './listener-random.ts'

/** Every ordering variant, by name. */
export const variants: Readonly<Record<VariantName, Variant>> = Object.freeze({
  'canonical': canonical,
  'registration-order': registrationOrder,
  'registry-sort': registrySort,
  'dependency-linearization': dependencyLinearization,
  'per-plugin-weight': perPluginWeight,
  'loop-order-tools': loopOrderTools,
  'stream-normalize': streamNormalize,
  'locale-compare': localeCompare,
  'unsorted-known-names': unsortedKnownNames,
  'listener-random': listenerRandom,
})

export { isVariantName, VARIANT_NAMES }

/** The variant called `name`; throws for an unknown name, listing the valid ones. */
export function getVariant(name: string): Variant {
  if (!isVariantName(name)) throw new Error(`unknown variant "${name}"; variants: ${VARIANT_NAMES.join(', ')}`)
  return variants[name]
}

/**
 * The ordering variant in force for `ctx`: the value of the optional `variant`
 * service, or `canonical` (dsh's behaviour) when no such service is active.
 */
export function activeVariant(ctx: Context): Variant {
  return variantSeam<Variant>(ctx, canonical)
}
