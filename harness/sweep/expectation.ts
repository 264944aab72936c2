import type { Scenario } from '../scenario/types.ts'
import type { Projection } from '../oracle/projection.ts'
import { formatGuarantee } from '../strategies/index.ts'
import type { Analysis } from './analyze.ts'
import { tokenOf } from './analyze.ts'
import type { Exploration } from './explore.ts'
import { replayableSchedule } from './runner.ts'

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}

/** The error texts of an output, for `expect.error`: load errors and turn errors. */
function errorTexts(json: string): string[] {
  const projection = JSON.parse(json) as Projection
  return [...projection.errors.load, ...projection.errors.turn]
}

/** The load and turn errors of an output, said after a colon (`: load error "…"; turn error "…"`); empty when there are none. */
function errorsSaid(json: string): string {
  const { errors } = JSON.parse(json) as Projection
  const said = [...errors.load.map(text => `load error ${JSON.stringify(text)}`), ...errors.turn.map(text => `turn error ${JSON.stringify(text)}`)]
  return said.length === 0 ? '' : `: ${said.join('; ')}`
}

/** Why a scenario did not meet its `expect:` block, one line per reason; empty when it did. */
export function expectationProblems(scenario: Scenario, exploration: Exploration, analysis: Analysis): string[] {
  const expect = scenario.expect
  const problems: string[] = []
  const explored = exploration.explored
  switch (analysis.verdict) {
    case 'error':
      return ['no interleaving ran']
    case 'uncontrolled': {
      const { token, hashes } = analysis.uncontrolled!
      return [`the same interleaving replayed to different bytes (${token}: ${hashes[0]}, then ${hashes[1]}): nondeterminism outside the scheduler's control`]
    }
    case 'stuck': {
      const info = analysis.stuck!.stuck!
      if (expect.outcome !== 'stuck') {
        problems.push(`interleaving ${tokenOf(scenario, replayableSchedule(analysis.stuck!))} is stuck (${info.reason} during ${info.phase}; waiting for ${info.waiting.join(', ') || 'unsettled work'})`)
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
    const where = `${group.count} of ${explored} interleavings, first ${tokenOf(scenario, replayableSchedule(record))}`
    if (record.outcome !== expect.outcome) problems.push(`expected outcome ${expect.outcome}, got ${record.outcome} (${where})${errorsSaid(group.json)}`)
    if (expect.deterministic && expect.tools && record.outcome === expect.outcome && !sameList(record.tools, expect.tools)) {
      problems.push(`expected tools [${expect.tools.join(', ')}], got [${record.tools.join(', ')}] (${where})`)
    }
    if (expect.error !== undefined && record.outcome === expect.outcome && !errorTexts(group.json).some(text => text.includes(expect.error!))) {
      problems.push(`expected an error containing ${JSON.stringify(expect.error)}, got ${JSON.stringify(errorTexts(group.json))} (${where})`)
    }
  }
  return problems
}
