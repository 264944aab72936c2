/**
 * What every target shares without loading one: the ordering variants some
 * target runs (the reference implements every one, `src/variants/`; each
 * target's definition says which it runs), and the loader entries the base
 * composition's services take when they race as cordis.yml entries
 * (`services: entries`).
 */
import { SERVICE_ENTRY_IDS, ALL_SERVICE_ENTRY_IDS } from '../../src/service-entries.ts'
import { VARIANT_NAMES as REFERENCE_VARIANTS } from '../../src/variants/variant.ts'

/** Every ordering variant some target runs: the RFC's decision and the alternatives it rejected. */
export const VARIANT_NAMES = REFERENCE_VARIANTS
export type VariantName = typeof VARIANT_NAMES[number]

/** The variant a scenario runs under unless it says otherwise: the RFC's decision. */
export const DEFAULT_VARIANT: VariantName = 'canonical'

/** Whether `name` names a variant some target runs. */
export function isVariantName(name: unknown): name is VariantName {
  return typeof name === 'string' && (VARIANT_NAMES as readonly string[]).includes(name)
}

/** The loader entry ids of the base composition's services when they race: SystemPrompt and the loop mounted directly (`none`), or an app chain. */
export function serviceEntryIds(app: string): readonly string[] {
  return app === 'none' ? SERVICE_ENTRY_IDS.none : SERVICE_ENTRY_IDS.app
}

/** Loader entry ids the base composition may take; a scenario's plugin ids may not. */
export const RESERVED_SERVICE_IDS: readonly string[] = ALL_SERVICE_ENTRY_IDS
