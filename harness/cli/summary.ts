import { coverage, firstLines, headline, replayCommand, replayTargets, resultOf, verdictText } from '../report/present.ts'
import type { Report, ScenarioReport } from '../report/types.ts'
import { alignedTable } from './table.ts'

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const
/** Replay commands listed per failed scenario. */
const MAX_REPLAYS = 3
/** Lines of a golden diff shown in the terminal (the report has all of it). */
const MAX_DIFF_LINES = 40

function row(scenario: ScenarioReport): string[] {
  const mark = MARK[resultOf(scenario)]
  if (scenario.skipped !== undefined) return [mark, scenario.name, '', '', '']
  return [mark, scenario.name, verdictText(scenario), scenario.guarantee, coverage(scenario).replaceAll(' / ', '/')]
}

/** What to show under a failed scenario: its problems, the blame pair, replay commands, the golden diff. */
function failureDetails(scenario: ScenarioReport): string[] {
  const lines = scenario.problems.map(problem => `    ${problem}`)
  if (scenario.divergence !== null) lines.push(`    blame: ${scenario.divergence.blame[0]} ↔ ${scenario.divergence.blame[1]} (${scenario.divergence.part}, ${scenario.divergence.kind})`)
  for (const target of replayTargets(scenario).slice(0, MAX_REPLAYS)) lines.push(`    replay (${target.label}): ${replayCommand(target.token)}`)
  if (scenario.goldenDiff !== undefined) {
    const shown = firstLines(scenario.goldenDiff, MAX_DIFF_LINES)
    lines.push(...shown.text.trimEnd().split('\n').map(line => `    ${line}`))
    if (shown.omitted > 0) lines.push(`    … ${shown.omitted} more diff lines in the report`)
  }
  return lines
}

/**
 * The terminal summary of a sweep: one aligned line per scenario (mark, name,
 * verdict, guarantee, explored/space), the details of each failure under its
 * line, the headline, and the report files written.
 */
export function sweepSummary(report: Report, written: readonly string[]): string {
  const table = alignedTable(report.scenarios.map(row)).trimEnd().split('\n')
  const lines: string[] = []
  report.scenarios.forEach((scenario, i) => {
    // A skip reason is long: it follows the name instead of widening the verdict column.
    lines.push(scenario.skipped === undefined ? table[i]! : `${table[i]!.trimEnd()}  skipped: ${scenario.skipped}`)
    if (resultOf(scenario) === 'failed') lines.push(...failureDetails(scenario))
  })
  if (report.scenarios.length > 0) lines.push('')
  const interleavings = `${report.summary.interleavings} interleaving${report.summary.interleavings === 1 ? '' : 's'}`
  lines.push(`${headline(report)} · ${interleavings}${report.complete ? '' : ' · INCOMPLETE (interrupted)'}`)
  for (const file of report.obsoleteGoldens ?? []) lines.push(`obsolete golden: ${file}`)
  if (written.length > 0) lines.push('Report:', ...written.map(file => `  ${file}`))
  return `${lines.join('\n')}\n`
}
