import type { Variant } from './variant.ts'
import { canonical } from './canonical.ts'

/** Canonical assembly plus a nondeterministic waterfall listener, which the RFC leaves to the listener's owner. */
export const listenerRandom: Variant = {
  name: 'listener-random',
  summary: 'canonical, plus a system-prompt/assemble listener that shuffles tools with Math.random (the RFC: listeners own the determinism of what they emit)',
  compareNames: canonical.compareNames,
  sortKnownNames: canonical.sortKnownNames,
  assembleListener: assembly => ({ ...assembly, tools: shuffle(assembly.tools) }),
}

/** Fisher–Yates with Math.random: deliberately uncontrolled. */
function shuffle<T>(items: readonly T[]): T[] {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy
}
