import { spaceSize } from '../space/space.ts'
import { sameSpace } from '../space/discovered.ts'
import { discoverSpace } from '../explore/explore.ts'
import { spaceOfScenario } from '../explore/declared-space.ts'
import { runnersFor } from '../runners/by-host.ts'
import { onHost } from '../scenario/overrides.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { hostsOf } from './sweep.ts'

/** What `loadrace list` says of one scenario. */
export interface ScenarioSpace {
  scenario: Scenario
  /** The exact number of interleavings of the discovered space. */
  size: bigint
  /** When the discovered space differs from the one the file declares: the declared size and the discovered chains. */
  discovered?: { declaredSize: bigint, chains: readonly (readonly string[])[] }
}

/**
 * Runs each scenario once in declaration order, on the host a sweep runs it
 * on by default, to discover its interleaving space, and compares it with the
 * space the file declares.
 */
export async function scenarioSpaces(scenarios: readonly Scenario[]): Promise<ScenarioSpace[]> {
  const runners = runnersFor({ workers: 1 })
  const spaces: ScenarioSpace[] = []
  for (const scenario of scenarios) {
    const declared = spaceOfScenario(scenario)
    // Discovered on the host a sweep runs the scenario on by default (Node 22 for dsh, when installed).
    const host = hostsOf(scenario, undefined, true)[0]!
    const space = await discoverSpace(onHost(scenario, host), runners.of(host))
    const size = spaceSize(space)
    spaces.push(sameSpace(space, declared) ? { scenario, size } : { scenario, size, discovered: { declaredSize: spaceSize(declared), chains: space.chains.map(chain => chain.ops) } })
  }
  await runners.close()
  return spaces
}
