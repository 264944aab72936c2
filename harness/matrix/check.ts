import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { CellExpectation } from './expectations.ts'
import type { RequestAgreement } from './requests.ts'

function blameFits(blame: readonly [string, string], groups: readonly (readonly string[])[]): boolean {
  return blame[0] !== blame[1] && groups.some(group => group.includes(blame[0]) && group.includes(blame[1]))
}

function formatGroups(groups: readonly (readonly string[])[]): string {
  return groups.map(group => `{${group.join(', ')}}`).join(' or ')
}

const REQUESTS_ACCEPTED: Readonly<Record<NonNullable<CellExpectation['requests']>, readonly RequestAgreement[]>> = {
  'identical': ['identical'],
  'identical-or-invariant': ['identical', 'identical-or-invariant'],
}

/**
 * Why a swept cell does not meet its expectation, one line per reason; empty
 * when it does. `requests` is how the cell's outputs' requests compare (needed
 * only when the expectation constrains them).
 */
export function cellProblems(expected: CellExpectation, report: ScenarioReport, requests?: RequestAgreement): string[] {
  if (report.skipped !== undefined) return [`not run: ${report.skipped}`]
  // loadrace's own failure says nothing about the system: no expectation is checked against it (the matrix exits 3).
  if (report.harnessFault !== undefined) return []
  const problems: string[] = []
  if (report.verdict !== expected.verdict) {
    problems.push(`verdict ${report.verdict}, expected ${expected.verdict} (${expected.rule})`)
  }
  if (expected.own && report.passed !== true) {
    problems.push(`the scenario's own sweep does not pass: ${report.problems.join('; ')}`)
  }
  const divergence = report.divergence
  if (divergence && report.verdict === 'divergent') {
    if (expected.part !== undefined && divergence.part !== expected.part) {
      problems.push(`the divergence first differs in ${divergence.part}, expected ${expected.part}`)
    }
    if (expected.blame !== undefined && !blameFits(divergence.blame, expected.blame)) {
      problems.push(`blames ${divergence.blame[0]} ↔ ${divergence.blame[1]}, expected two of ${formatGroups(expected.blame)}`)
    }
  }
  if (expected.requests !== undefined) {
    if (requests === undefined) problems.push('the dispatched requests were not compared')
    else if (!REQUESTS_ACCEPTED[expected.requests].includes(requests)) {
      problems.push(`dispatched requests: ${requests} across the outputs, expected ${expected.requests}`)
    }
  }
  if (expected.golden === 'mismatch' && report.golden !== 'mismatch') {
    problems.push(`golden ${report.golden}, expected a mismatch with the committed canonical golden`)
  }
  if (expected.golden === 'match' && report.golden !== 'match' && report.golden !== 'none') {
    problems.push(`golden ${report.golden}, expected it to match the committed canonical golden`)
  }
  return problems
}
