import { createDeterministicEnvironment } from '../targets/environment.ts'
import type { Scenario } from '../scenario/scenario.ts'
import type { MountOptions, Workdir } from '../targets/target.ts'
import type { System } from '../system/system.ts'

/** How a target mounts `scenario`'s base composition, with a fresh deterministic environment (clock and ids). */
export function mountOptionsOf(scenario: Scenario, system: System, workdir: Workdir): MountOptions {
  return {
    system,
    workdir,
    ...scenario.snapshot === undefined ? {} : { snapshot: scenario.snapshot },
    ...scenario.model === undefined ? {} : { model: scenario.model },
    app: scenario.app,
    config: scenario.config,
    variant: scenario.variant,
    invariant: scenario.invariant,
    services: scenario.services,
    base: scenario.base,
    environment: createDeterministicEnvironment(),
  }
}
