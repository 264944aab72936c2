import type { Variant } from './variant.ts'

/** The status quo the RFC removed: tools reach the model in provider/registration order. */
export const registrationOrder: Variant = {
  name: 'registration-order',
  summary: 'status quo: tools keep registry insertion order, i.e. the import-completion race (rejected: host-dependent CI flake)',
  compareNames: null,
  sortKnownNames: true,
}
