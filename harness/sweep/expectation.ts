import type { Scenario } from '../scenario/types.ts'
import type { Projection } from '../oracle/projection.ts'
import { formatGuarantee } from '../strategies/index.ts'
import { describeInactive } from '../run/inactive.ts'
import type { Analysis } from './analyze.ts'
import { tokenOf } from './analyze.ts'
import type { Exploration } from './explore.ts'

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}

/** The error texts of an output, for `expect.error`: load errors and turn errors. */
function errorTexts(projection: Projection): string[] {
  return [...projection.errors.load, ...projection.errors.turn]
}

/**
 * Entries of one output that are inactive without `expect.inactive` listing
 * them, and listed entries that became active after all (a stuck output
 * says nothing about either).
 */
function inactiveProblems(projection: Projection, expected: readonly string[], where: string): string[] {
  if (projection.outcome === 'stuck') return []
  const inactive = projection.inactive ?? []
  const unexpected = inactive.filter(entry => !expected.includes(entry.id))
  const active = expected.filter(id => !inactive.some(entry => entry.id === id))
  return [
    ...unexpected.map(entry => `entry ${describeInactive(entry)} never became active (${where}); list it under expect.inactive if that is intended`),
    ...active.map(id => `expected entry ${id} to stay inactive, but it became active (${where})`),
  ]
}

/** Why a scenario did not meet its `expect:` block, one line per reason; empty when it did. */
export function expectationProblems(scenario: Scenario, exploration: Exploration, analysis: Analysis): string[] {
  const expect = scenario.expect
  const problems: string[] = []
  const explored = exploration.explored
  switch (analysis.verdict) {
    case 'error':
      return ['no interleaving ran']
    case 'uncontrolled':
      return [`the same interleaving replayed to different bytes (${analysis.uncontrolled!.token}): nondeterminism outside the scheduler's control`]
    case 'stuck': {
      const info = analysis.stuck!.stuck!
      if (expect.outcome !== 'stuck') {
        problems.push(`interleaving ${tokenOf(scenario, analysis.stuck!.schedule)} is stuck (${info.reason} during ${info.phase}; waiting for ${info.waiting.join(', ') || 'unsettled work'})`)
      }
      break
    }
    case 'divergent': {
      const d = analysis.divergence!
      if (expect.deterministic) problems.push(`interleavings differ in ${d.part} (${d.kind}): swapping ${d.blame[0]} and ${d.blame[1]} changes the bytes`)
      break
    }
    case 'deterministic':
      if (!expect.deterministic) {
        problems.push(`expected a race, but all ${explored} explored interleavings gave identical bytes (guarantee: ${formatGuarantee(exploration.guarantee)})`)
      }
      break
  }
  for (const group of exploration.outputs) {
    const record = group.first
    const projection = JSON.parse(group.json) as Projection
    const where = `${group.count} of ${explored} interleavings, first ${tokenOf(scenario, record.schedule)}`
    if (record.outcome !== expect.outcome) problems.push(`expected outcome ${expect.outcome}, got ${record.outcome} (${where})`)
    if (expect.deterministic && expect.tools && record.outcome === expect.outcome && !sameList(record.tools, expect.tools)) {
      problems.push(`expected tools [${expect.tools.join(', ')}], got [${record.tools.join(', ')}] (${where})`)
    }
    if (expect.error !== undefined && record.outcome === expect.outcome && !errorTexts(projection).some(text => text.includes(expect.error!))) {
      problems.push(`expected an error containing ${JSON.stringify(expect.error)}, got ${JSON.stringify(errorTexts(projection))} (${where})`)
    }
    problems.push(...inactiveProblems(projection, expect.inactive, where))
  }
  return problems
}
