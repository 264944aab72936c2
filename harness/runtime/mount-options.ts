import { createDeterministicEnvironment } from '../targets/environment.ts'
import type { Scenario } from '../scenario/types.ts'
import type { MountOptions } from '../targets/types.ts'

/** How a target mounts `scenario`'s base composition, with a fresh deterministic environment (clock and ids). */
export function mountOptionsOf(scenario: Scenario): MountOptions {
  return {
    app: scenario.app,
    config: scenario.config,
    variant: scenario.variant,
    invariant: scenario.invariant,
    services: scenario.services,
    base: scenario.base,
    environment: createDeterministicEnvironment(),
  }
}
