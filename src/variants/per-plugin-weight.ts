import type { Variant } from './variant.ts'

/** The rejected alternative of a per-contribution weight chosen by each plugin. */
export const perPluginWeight: Variant = {
  name: 'per-plugin-weight',
  summary: 'the registry orders records by their registration weight (default 0), ties in registration order (rejected: needs a global numbering convention nobody owns)',
  registryOrder: records => [...records].sort((a, b) => (a.weight ?? 0) - (b.weight ?? 0)),
  compareNames: null,
  sortKnownNames: true,
}
