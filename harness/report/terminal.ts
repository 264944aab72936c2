import { coverage, firstLines, goldenWithheldSentence, movedSentence, partlyInactiveSentence, printedHeading, printedLines, printedOmission, replayCommand, replayTargets, resultOf, runtimeSentence, verdictText } from './present.ts'
import { PLAIN, styledDiffLine, type Style } from './style.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { SnapshotFinding } from '../judge/snapshot.ts'
import { contributor } from '../oracle/moved.ts'
import { findTarget } from '../targets/registry.ts'

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

/**
 * One line: mark, name (padded to `nameWidth`), verdict, guarantee,
 * explored/space; a skip reason follows the name. A scenario that passed
 * with a verdict other than `deterministic` (its file expects the race, or
 * the hang) says `as expected` at the end, so a `✓` beside `divergent` or
 * `stuck` is not read as a pass of a bad verdict.
 */
export function scenarioLine(scenario: ScenarioReport, nameWidth: number, style: Style = PLAIN): string {
  const result = resultOf(scenario)
  const paint = resultStyle(result, style)
  const head = `${paint(MARKS[result] ?? '?')}  ${paint(scenario.name.padEnd(nameWidth))}`
  if (scenario.skipped !== undefined) return `${head}  ${style.dim(`skipped: ${scenario.skipped}`)}`.trimEnd()
  const expected = result === 'passed' && scenario.verdict !== 'deterministic' ? [style.dim(`(${scenario.verdict}, as its file expects)`)] : []
  const cells = [verdictText(scenario).padEnd(VERDICT_WIDTH), scenario.guarantee.padEnd(GUARANTEE_WIDTH), coverage(scenario).replaceAll(' / ', '/'), ...expected]
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
    const partly = partlyInactiveSentence(divergence)
    if (partly !== undefined) lines.push(`${INDENT}${partly}`)
    lines.push(...indented(`first difference: ${divergence.firstDifference}`, style))
    if (divergence.sections !== undefined) lines.push(`${INDENT}system prompt sections (before → after the swap):`, ...indented(divergence.sections, style, `${INDENT}  `))
  }
  const rerun = scenario.uncontrolled
  if (rerun?.firstDifference !== undefined) lines.push(...indented(`first difference: ${rerun.firstDifference}`, style))
  const fault = scenario.harnessFault
  if (fault?.firstDifference !== undefined) lines.push(...indented(`first difference: ${fault.firstDifference}`, style))
  for (const target of replayTargets(scenario).slice(0, MAX_REPLAYS)) {
    lines.push(`${INDENT}replay (${target.label}): ${replayCommand(target.token, scenario.file)}`)
  }
  if (divergence !== null) lines.push(...trimmedDiff(`diff of the ${divergence.part} (before → after the swap):`, divergence.diff, style))
  if (rerun !== undefined && rerun.part !== null && rerun.diff !== '') lines.push(...trimmedDiff(`diff of the ${rerun.part} (explored → rerun):`, rerun.diff, style))
  if (fault !== undefined && fault.part !== null && fault.diff !== '') lines.push(...trimmedDiff(`diff of the ${fault.part} (controlled → order-only):`, fault.diff, style))
  if (scenario.goldenDiff !== undefined) {
    const accept = scenario.golden === 'withheld' ? '' : '; accept it with --update-goldens (-u)'
    lines.push(...trimmedDiff(`diff against the golden (golden → this sweep)${accept}:`, scenario.goldenDiff, style))
  }
  if (scenario.snapshot !== undefined) lines.push(...snapshotDetails(scenario, scenario.snapshot, style))
  return lines
}

/** What a snapshot finding shows under a failed scenario: blame, both replay commands, the sections, the fix, the diff from each pinned file. */
function snapshotDetails(scenario: ScenarioReport, finding: SnapshotFinding, style: Style): string[] {
  const lines: string[] = []
  if (finding.blame !== undefined && finding.tokens !== undefined) {
    lines.push(`${INDENT}snapshot blame: ${style.bold(`${finding.blame[0]} ↔ ${finding.blame[1]}`)}: swapping them turns the pinned load order into one the snapshot does not pin`)
    lines.push(`${INDENT}replay (gives the pinned files): ${replayCommand(finding.tokens[0], scenario.file)}`)
    lines.push(`${INDENT}replay (does not): ${replayCommand(finding.tokens[1], scenario.file)}`)
  }
  if (finding.sections !== undefined) lines.push(`${INDENT}system prompt sections (pinned → the other load order):`, ...indented(finding.sections, style, `${INDENT}  `))
  if (finding.fix !== undefined) lines.push(`${INDENT}fix: ${finding.fix}`)
  for (const file of finding.differs ?? []) lines.push(...trimmedDiff(`diff from the pinned ${file.file} (pinned → ${finding.mismatching.token ?? 'the first interleaving'}):`, file.diff, style))
  return lines
}

/** `, moving section tool:pty (base.tool-terminal) and section tool:jobs (…)`: what the blamed swap moves; empty when nothing is known to. */
function movedPhrase(finding: SnapshotFinding): string {
  const moved = finding.moved ?? []
  return moved.length === 0 ? '' : `, moving ${moved.map(item => `${item.kind} ${item.name} (${contributor(item)})`).join(' and ')}`
}

/** One line saying what a snapshot is of the explored outputs, under a scenario that passed. */
export function snapshotLine(finding: SnapshotFinding): string {
  const total = finding.matching.interleavings + finding.mismatching.interleavings
  const said: Record<SnapshotFinding['status'], string> = {
    'holds': `holds: all ${total} interleavings give the pinned files`,
    'pins-one': `pins one load order: ${finding.matching.interleavings} of ${total} interleavings give the pinned files${finding.blame ? `, blame ${finding.blame[0]} ↔ ${finding.blame[1]}` : ''}${movedPhrase(finding)}`,
    'matches-none': `matches none of ${total} interleavings`,
  }
  return `snapshot ${finding.folder} ${said[finding.status]}${finding.status === finding.expected && finding.status !== 'holds' ? ' (as expected)' : ''}`
}

/**
 * What the system printed in the interleavings the entry names, once per
 * distinct text, each cut as a diff is (the report has all of it).
 */
export function printedDetails(scenario: ScenarioReport, style: Style = PLAIN): string[] {
  return (scenario.systemOutput ?? []).flatMap((printed) => {
    const omission = printedOmission(printed)
    return [`${INDENT}${printedHeading(printed)}`, ...indented(printedLines(printed).join('\n'), style, `${INDENT}  `), ...omission === undefined ? [] : [`${INDENT}  ${style.dim(omission)}`]]
  })
}

/** How a scenario's block is shown. */
export interface BlockOptions {
  /** Show what the system printed under every scenario, not only under a failed one (`--show-output`). */
  showOutput?: boolean
}

/**
 * The line of a scenario and what follows it: which Node it ran on when its
 * target prefers a host (dsh's packages declare Node 22, which loadrace may
 * not have found), the failure details and what the system printed (for a
 * failure, or with `showOutput`), and a golden written.
 */
export function scenarioBlock(scenario: ScenarioReport, nameWidth: number, style: Style = PLAIN, options: BlockOptions = {}): string[] {
  const lines = [scenarioLine(scenario, nameWidth, style)]
  const runtime = findTarget(scenario.target)?.preferredHost !== undefined ? runtimeSentence(scenario) : undefined
  if (runtime !== undefined) lines.push(`${INDENT}${style.dim(runtime)}`)
  const failed = resultOf(scenario) === 'failed'
  if (failed) lines.push(...failureDetails(scenario, style))
  if (failed || options.showOutput === true) lines.push(...printedDetails(scenario, style))
  if (scenario.golden === 'written' && scenario.goldenFile !== undefined) lines.push(`${INDENT}${style.dim(`wrote golden ${scenario.goldenFile}`)}`)
  if (scenario.snapshot !== undefined && resultOf(scenario) !== 'failed') lines.push(`${INDENT}${style.dim(snapshotLine(scenario.snapshot))}`)
  const withheld = goldenWithheldSentence(scenario)
  if (withheld !== undefined) lines.push(`${INDENT}${style.dim(withheld)}`)
  return lines
}
