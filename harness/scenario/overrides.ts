import { isCurrentProcess, type Host } from '../hosts/host.ts'
import type { VariantName } from '../targets/catalogue.ts'
import type { TargetName } from '../targets/target.ts'
import type { Scenario } from './scenario.ts'

/** A scenario with a sweep's overrides applied: another variant or target than its own. */
export function withOverrides(scenario: Scenario, options: { variant?: VariantName, target?: TargetName }): Scenario {
  return { ...scenario, variant: options.variant ?? scenario.variant, target: options.target ?? scenario.target }
}

/** The scenario as it runs on `host` (its tokens name the host unless it is this very process). */
export function onHost(scenario: Scenario, host: Host): Scenario {
  const { runsOn: _previous, ...rest } = scenario
  return isCurrentProcess(host) ? rest : { ...rest, runsOn: host.name }
}
