import { loadScenarios } from '../scenario/load.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { InputError } from '../scenario/errors.ts'

/** Where scenarios are looked for when no path is given. */
export const DEFAULT_SCENARIO_PATHS: readonly string[] = ['scenarios/']

/**
 * Loads every scenario under `paths` (the default folder when empty). Rejects
 * with the loader's `ScenarioErrors` (one line per bad file), or with an
 * `InputError` when no scenario file was found at all.
 */
export async function scenariosFrom(paths: readonly string[]): Promise<Scenario[]> {
  const given = paths.length > 0 ? paths : DEFAULT_SCENARIO_PATHS
  const scenarios = await loadScenarios(given)
  if (scenarios.length === 0) throw new InputError([`no scenario files (.yml, .yaml) found in ${given.join(', ')}`])
  return scenarios
}

/**
 * The scenarios whose name matches `filter` (`--filter`), all of them without
 * one; an `InputError` naming the pattern and the names when none matches.
 */
export function matching(scenarios: readonly Scenario[], filter: RegExp | undefined): Scenario[] {
  if (filter === undefined) return [...scenarios]
  const kept = scenarios.filter(scenario => filter.test(scenario.name))
  if (kept.length === 0) {
    throw new InputError([`--filter: no scenario name matches /${filter.source}/ (names: ${scenarios.map(scenario => scenario.name).join(', ')})`])
  }
  return kept
}
