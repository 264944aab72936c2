import { headerToolNames } from '../oracle/projection.ts'
import type { ScenarioReport } from '../report/types.ts'
import type { Scenario } from '../scenario/types.ts'
import type { Runner } from '../sweep/runner.ts'
import { outputProjections } from '../matrix/output-projections.ts'
import type { OutputObservation } from './types.ts'

/** What each distinct output of a sweep entry shows of the compared aspects (its first interleaving, replayed). */
export async function observeOutputs(scenario: Scenario, entry: ScenarioReport, runner: Runner): Promise<OutputObservation[]> {
  const projections = await outputProjections(scenario, entry, runner)
  return projections.map((projection, i) => ({
    token: entry.outputs[i]!.token,
    outcome: projection.outcome,
    tools: headerToolNames(projection),
    errors: { load: [...projection.errors.load], turn: [...projection.errors.turn] },
  }))
}
