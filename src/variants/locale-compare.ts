import type { Variant } from './variant.ts'

/** Canonical placement with a locale-dependent comparator: what the RFC's code-unit rule avoids. */
export const localeCompare: Variant = {
  name: 'locale-compare',
  summary: 'canonical placement but names compared with localeCompare (the RFC requires code-unit comparison, locale-independent)',
  compareNames: (a, b) => a.localeCompare(b),
  sortKnownNames: true,
}
