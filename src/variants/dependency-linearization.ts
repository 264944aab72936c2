import type { Variant } from './variant.ts'

/** The rejected alternative of ordering by the plugin dependency relation. */
export const dependencyLinearization: Variant = {
  name: 'dependency-linearization',
  summary: 'the registry orders records by dependency depth, ties in registration order (rejected: a partial order, independent tool plugins stay incomparable)',
  registryOrder: records => [...records].sort((a, b) => a.depth - b.depth),
  compareNames: null,
  sortKnownNames: true,
}
