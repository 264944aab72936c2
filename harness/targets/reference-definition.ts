/** loadrace's own reference system (`src/`) as the registry holds it: every variant, goldens, its own system. */
import { HARNESS_IDENTITY_TEXT } from '../../src/system-prompt/identity.ts'
import { VARIANT_NAMES } from './catalogue.ts'
import type { TargetDefinition } from './definition.ts'

export const referenceDefinition: TargetDefinition = {
  name: 'reference',
  variants: VARIANT_NAMES,
  identity: { text: HARNESS_IDENTITY_TEXT, model: 'mock-model' },
  applications: false,
  goldens: true,
  compared: true,
  namesSystem: false,
  load: () => import('./reference.ts').then(module => module.referenceTarget),
}
