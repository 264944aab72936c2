import { coverage, firstLines, movedSentence, replayCommand, replayTargets, resultOf, runtimeSentence, verdictText } from './present.ts'
import { PLAIN, styledDiffLine, type Style } from './style.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'

/**
 * A scenario as the terminal shows it — the `loadrace sweep` output, the
 * vitest helpers' failure messages — one line, then, for a failure,
 * everything needed to understand and replay it: the problems (they carry
 * the load and turn error texts and both hashes of an uncontrolled replay),
 * the blame pair, where the bytes first differ, replay commands, and the
 * trimmed diff of a divergence, of an uncontrolled rerun or of a golden
 * mismatch. A golden written is announced under any scenario.
 */

/** Replay commands listed per failed scenario. */
const MAX_REPLAYS = 3
/** Lines of a diff shown in the terminal (the report has all of it). */
export const MAX_DIFF_LINES = 40
/** Width of the verdict column: the longest verdict and outcome loadrace knows of. */
const VERDICT_WIDTH = 'deterministic (load-error)'.length
/** Width of the guarantee column. */
const GUARANTEE_WIDTH = 'exhaustive'.length
const INDENT = '    '

/** The mark of each result; a result this version does not know gets `?`. */
const MARKS: Readonly<Record<string, string>> = { passed: '✓', failed: '✗', skipped: '-' }

/** The style of a result's mark and name. */
function resultStyle(result: string, style: Style): (text: string) => string {
  if (result === 'passed') return style.passed
  if (result === 'skipped') return style.skipped
  return style.failed
}

/** One line: mark, name (padded to `nameWidth`), verdict, guarantee, explored/space; a skip reason follows the name. */
export function scenarioLine(scenario: ScenarioReport, nameWidth: number, style: Style = PLAIN): string {
  const result = resultOf(scenario)
  const paint = resultStyle(result, style)
  const head = `${paint(MARKS[result] ?? '?')}  ${paint(scenario.name.padEnd(nameWidth))}`
  if (scenario.skipped !== undefined) return `${head}  ${style.dim(`skipped: ${scenario.skipped}`)}`.trimEnd()
  const cells = [verdictText(scenario).padEnd(VERDICT_WIDTH), scenario.guarantee.padEnd(GUARANTEE_WIDTH), coverage(scenario).replaceAll(' / ', '/')]
  return `${head}  ${cells.join('  ')}`.trimEnd()
}

/** A diff cut to `MAX_DIFF_LINES`, indented and styled, with a line saying how much was left out. */
function trimmedDiff(title: string, diff: string, style: Style): string[] {
  const shown = firstLines(diff, MAX_DIFF_LINES)
  const lines = [`${INDENT}${title}`, ...shown.text.trimEnd().split('\n').map(line => `${INDENT}${styledDiffLine(line, style)}`)]
  if (shown.omitted > 0) lines.push(`${INDENT}${style.dim(`… ${shown.omitted} more diff lines in the report`)}`)
  return lines
}

/** Lines of `text`, indented, at most `MAX_DIFF_LINES` of them. */
function indented(text: string, style: Style, prefix = INDENT): string[] {
  const shown = firstLines(text.endsWith('\n') ? text : `${text}\n`, MAX_DIFF_LINES)
  const lines = shown.text.trimEnd().split('\n').map(line => `${prefix}${line}`)
  if (shown.omitted > 0) lines.push(`${prefix}${style.dim(`… ${shown.omitted} more lines in the report`)}`)
  return lines
}

/** What a failure needs explained, one indented line each: problems, blame, replay commands, diffs. */
export function failureDetails(scenario: ScenarioReport, style: Style = PLAIN): string[] {
  const lines = scenario.problems.flatMap(problem => problem.split('\n').map(line => `${INDENT}${line}`))
  const divergence = scenario.divergence
  if (divergence !== null) {
    lines.push(`${INDENT}blame: ${style.bold(`${divergence.blame[0]} ↔ ${divergence.blame[1]}`)} (${divergence.part}, ${divergence.kind})`)
    const moved = movedSentence(divergence)
    if (moved !== undefined) lines.push(`${INDENT}${moved}`)
    lines.push(...indented(`first difference: ${divergence.firstDifference}`, style))
    if (divergence.sections !== undefined) lines.push(`${INDENT}system prompt sections (before → after the swap):`, ...indented(divergence.sections, style, `${INDENT}  `))
  }
  const rerun = scenario.uncontrolled
  if (rerun?.firstDifference !== undefined) lines.push(...indented(`first difference: ${rerun.firstDifference}`, style))
  for (const target of replayTargets(scenario).slice(0, MAX_REPLAYS)) {
    lines.push(`${INDENT}replay (${target.label}): ${replayCommand(target.token, scenario.file)}`)
  }
  if (divergence !== null) lines.push(...trimmedDiff(`diff of the ${divergence.part} (before → after the swap):`, divergence.diff, style))
  if (rerun !== undefined && rerun.part !== null && rerun.diff !== '') lines.push(...trimmedDiff(`diff of the ${rerun.part} (explored → rerun):`, rerun.diff, style))
  if (scenario.goldenDiff !== undefined) {
    lines.push(...trimmedDiff('diff against the golden (golden → this sweep); accept it with --update-goldens (-u):', scenario.goldenDiff, style))
  }
  return lines
}

/**
 * The line of a scenario and what follows it: which Node a dsh scenario ran
 * on (its packages declare Node 22, which loadrace may not have found), the
 * failure details, and a golden written.
 */
export function scenarioBlock(scenario: ScenarioReport, nameWidth: number, style: Style = PLAIN): string[] {
  const lines = [scenarioLine(scenario, nameWidth, style)]
  const runtime = scenario.target === 'dsh' ? runtimeSentence(scenario) : undefined
  if (runtime !== undefined) lines.push(`${INDENT}${style.dim(runtime)}`)
  if (resultOf(scenario) === 'failed') lines.push(...failureDetails(scenario, style))
  if (scenario.golden === 'written' && scenario.goldenFile !== undefined) lines.push(`${INDENT}${style.dim(`wrote golden ${scenario.goldenFile}`)}`)
  return lines
}
