import { firstLines, headline, movedSentence, replayCommand, replayTargets, resultOf, verdictText } from '../report/present.ts'
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
  return [mark, scenario.name, verdictText(scenario), scenario.guarantee, `${scenario.explored}/${scenario.space}`]
}

/** What to show under a failed scenario: its problems, the blame pair, replay commands, the golden diff. */
function failureDetails(scenario: ScenarioReport): string[] {
  const lines = scenario.problems.map(problem => `    ${problem}`)
  const divergence = scenario.divergence
  if (divergence !== null) {
    lines.push(`    blame: ${divergence.blame[0]} ↔ ${divergence.blame[1]} (${divergence.part}, ${divergence.kind})`)
    const moved = movedSentence(divergence)
    if (moved !== undefined) lines.push(`    ${moved}`)
    lines.push(...indented(`first difference: ${divergence.firstDifference}`))
    if (divergence.sections !== undefined) lines.push('    system prompt sections (before → after the swap):', ...indented(divergence.sections, '      '))
  }
  for (const target of replayTargets(scenario).slice(0, MAX_REPLAYS)) lines.push(`    replay (${target.label}): ${replayCommand(target.token)}`)
  if (scenario.goldenDiff !== undefined) {
    const shown = firstLines(scenario.goldenDiff, MAX_DIFF_LINES)
    lines.push(...shown.text.trimEnd().split('\n').map(line => `    ${line}`))
    if (shown.omitted > 0) lines.push(`    … ${shown.omitted} more diff lines in the report`)
  }
  return lines
}

/** Lines of `text`, indented, at most {@link MAX_DIFF_LINES} of them. */
function indented(text: string, prefix = '    '): string[] {
  const shown = firstLines(text.endsWith('\n') ? text : `${text}\n`, MAX_DIFF_LINES)
  const lines = shown.text.trimEnd().split('\n').map(line => `${prefix}${line}`)
  if (shown.omitted > 0) lines.push(`${prefix}… ${shown.omitted} more lines in the report`)
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
