/**
 * A fresh deterministic environment (clock and ids) for one interleaving:
 * the reference's own generator, which the dsh target also uses to rewrite
 * the ids and times dsh makes, so both targets see the same values.
 */
export { createDeterministicEnvironment } from '../../src/runtime/environment.ts'
