import { type Projection, parseProjection } from '../projection/projection.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { Scenario } from '../scenario/scenario.ts'
import type { Runner } from '../runners/runner.ts'
import { withOverrides } from '../scenario/overrides.ts'
import { parseToken } from '../token.ts'

/**
 * The projection of each distinct output of a sweep entry, in the entry's
 * order: the output's first interleaving, replayed from its token (the token
 * carries the variant and target it ran under). For a deterministic system
 * the replay reproduces the output's bytes; a report only keeps tool names,
 * so this is how the rest of an output (requests, errors) is looked at again.
 */
export async function outputProjections(scenario: Scenario, entry: ScenarioReport, runner: Runner): Promise<Projection[]> {
  const projections: Projection[] = []
  for (const output of entry.outputs) {
    const token = parseToken(output.token)
    const record = await runner.runOne(withOverrides(scenario, token), token.schedule)
    projections.push(parseProjection(record.json))
  }
  return projections
}
