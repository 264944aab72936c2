import { escapeMarkdown as text, markdownCode, markdownFence } from './escape.ts'
import {
  GOLDEN_MARK,
  goldenWithheldSentence,
  printedHeading,
  printedLines,
  printedOmission,
  partlyInactiveSentence,
  INCOMPLETE_NOTICE,
  MAX_OUTPUTS_LISTED,
  STATUS_MARK,
  VERDICT_MEANING,
  blameSentence,
  movedSentence,
  coverage,
  expectation,
  failedScenarios,
  firstLines,
  formatDuration,
  guaranteeMeaning,
  guaranteesUsed,
  headline,
  optionsLine,
  placeOf,
  replayCommand,
  replayTargets,
  reportStatus,
  resultOf,
  scenarioFacts,
  shardNotice,
  shortHash,
  verdictText,
} from './present.ts'
import type { Report } from './sweep-report.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import { systemsOf } from './system.ts'

/**
 * `report.md`, also appended to a GitHub job summary: a headline, one table
 * row per scenario, and for each failed scenario what went wrong, who is to
 * blame and how to replay it.
 */

/** Diffs longer than this are cut in Markdown (job summaries are capped at 1 MiB); `report.json` keeps them whole. */
const MAX_DIFF_LINES = 300

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`
}

function summaryTable(report: Report): string[] {
  const lines = [
    row(['Scenario', 'Verdict', 'Expected', 'Guarantee', 'Explored / space', 'Golden', 'Result']),
    row(['---', '---', '---', '---', '---:', '---', ':---:']),
  ]
  for (const scenario of report.scenarios) {
    const result = resultOf(scenario)
    const skipped = result === 'skipped'
    lines.push(row([
      `**${text(scenario.name)}**<br>${text(placeOf(scenario))}`,
      skipped ? 'skipped' : text(verdictText(scenario)),
      text(expectation(scenario)),
      skipped ? '—' : text(scenario.guarantee),
      skipped ? '—' : text(coverage(scenario)),
      scenario.golden === 'none' ? '—' : `${GOLDEN_MARK[scenario.golden]} ${text(scenario.golden)}`,
      `${STATUS_MARK[result]} ${result}`,
    ]))
  }
  return lines
}

function guaranteeLegend(report: Report): string[] {
  const used = guaranteesUsed(report)
  if (used.length === 0) return []
  return ['', ...used.map((guarantee) => `- **${text(guarantee)}**: ${text(guaranteeMeaning(guarantee))}`)]
}

function skippedList(report: Report): string[] {
  const skipped = report.scenarios.filter((scenario) => scenario.skipped !== undefined)
  if (skipped.length === 0) return []
  return [
    '',
    '**Skipped**',
    '',
    ...skipped.map((scenario) => `- ${text(scenario.name)} (${text(placeOf(scenario))}): ${text(scenario.skipped ?? '')}`),
  ]
}

/** The systems the scenarios ran on: every package with its version and folder. */
function systemList(report: Report): string[] {
  const systems = systemsOf(report)
  if (systems.length === 0) return []
  const lines = ['', '**System under test**']
  for (const { system, scenarios } of systems) {
    lines.push('', `${system.own ? "loadrace's own packages" : "The project's packages"}, for ${scenarios.map(name => text(name)).join(', ')}:`, '')
    lines.push(row(['Package', 'Version', 'Folder']), row(['---', '---', '---']))
    for (const item of system.packages) lines.push(row([text(item.name), text(item.version), `\`${item.path}\``]))
  }
  return lines
}

function diffBlock(title: string, diff: string): string[] {
  const { text: kept, omitted } = firstLines(diff, MAX_DIFF_LINES)
  const lines = ['', title, '', markdownFence(kept, 'diff')]
  if (omitted > 0) lines.push('', `_${omitted} more diff lines omitted; the whole diff is in report.json._`)
  return lines
}

/** What the system printed in the interleavings the scenario names, each cut as a diff is (report.json has all of it). */
function printedBlocks(scenario: ScenarioReport): string[] {
  return (scenario.systemOutput ?? []).flatMap((printed) => {
    const { text: kept, omitted } = firstLines(`${printedLines(printed).join('\n')}\n`, MAX_DIFF_LINES)
    const lines = ['', `**${text(printedHeading(printed))}**`, '', markdownFence(kept, 'text')]
    if (omitted > 0) lines.push('', `_${omitted} more lines omitted; all of it is in report.json._`)
    const omission = printedOmission(printed)
    if (omission !== undefined) lines.push('', `_${text(omission)}_`)
    return lines
  })
}

function replayBlock(scenario: ScenarioReport): string[] {
  const targets = replayTargets(scenario)
  if (targets.length === 0) return []
  const script = targets.map(({ label, token }) => `# ${label.replace(/\s+/g, ' ')}\n${replayCommand(token, scenario.file)}`).join('\n')
  return ['', '**Replay**', '', markdownFence(script, 'sh')]
}

function outputsTable(scenario: ScenarioReport): string[] {
  if (scenario.outputs.length === 0) return []
  const listed = scenario.outputs.slice(0, MAX_OUTPUTS_LISTED)
  const lines = [
    '',
    `**Outputs** (${scenario.distinctOutputs} distinct)`,
    '',
    row(['Output', 'Interleavings', 'Tools', 'Replay token']),
    row(['---', '---:', '---', '---']),
    ...listed.map((output) => row([
      markdownCode(shortHash(output.hash), { inTable: true }),
      String(output.count),
      output.tools.length === 0 ? '_(no header)_' : output.tools.map(text).join(', '),
      markdownCode(output.token, { inTable: true }),
    ])),
  ]
  const rest = scenario.outputs.length - listed.length
  if (rest > 0) lines.push('', `_${rest} more outputs in report.json._`)
  return lines
}

function failureSection(scenario: ScenarioReport): string[] {
  const lines = [
    '',
    `## ${STATUS_MARK.failed} ${text(scenario.name)} · ${text(placeOf(scenario))}`,
    '',
    scenarioFacts(scenario).map(text).join(' · '),
    '',
    `Verdict **${text(scenario.verdict)}**: ${text(VERDICT_MEANING[scenario.verdict])}. ` +
      `Outcome ${text(scenario.outcome)}; expected ${text(expectation(scenario))}.`,
  ]
  if (scenario.problems.length > 0) {
    lines.push('', '**Problems**', '', ...scenario.problems.map((problem) => `- ${text(problem)}`))
  }
  const divergence = scenario.divergence
  if (divergence !== null) {
    const [before, after] = divergence.tokens
    lines.push(
      '',
      `**Blame: ${text(divergence.blame[0])} ⇄ ${text(divergence.blame[1])}**. ${text(blameSentence(divergence))} ` +
        `(part ${markdownCode(divergence.part)}, kind ${markdownCode(divergence.kind)})`,
      '',
      `Tokens: before the swap ${markdownCode(before)}, after it ${markdownCode(after)}.`,
    )
    const moved = movedSentence(divergence)
    if (moved !== undefined) lines.push('', text(moved))
    const partly = partlyInactiveSentence(divergence)
    if (partly !== undefined) lines.push('', text(partly))
  }
  lines.push(...replayBlock(scenario))
  if (divergence !== null) {
    lines.push(...diffBlock('**First difference**', divergence.firstDifference))
    if (divergence.sections !== undefined) lines.push(...diffBlock('**System prompt sections** (before → after the swap)', divergence.sections))
    lines.push(...diffBlock(`**Diff** of the ${text(divergence.part)} (before → after the swap)`, divergence.diff))
  }
  const rerun = scenario.uncontrolled
  if (rerun !== undefined && rerun.part !== null) {
    lines.push(...diffBlock(`**Rerun diff** of the ${text(rerun.part)} of ${markdownCode(rerun.token)} (explored → rerun)`, rerun.diff))
  }
  const fault = scenario.harnessFault
  if (fault !== undefined && fault.part !== null) {
    lines.push(...diffBlock(`**Harness fault diff** of the ${text(fault.part)} of ${markdownCode(fault.token)} (controlled → order-only)`, fault.diff))
  }
  lines.push(...outputsTable(scenario))
  if (scenario.goldenDiff !== undefined) {
    lines.push(...diffBlock('**Golden diff** (golden → this run)', scenario.goldenDiff))
  }
  const withheld = goldenWithheldSentence(scenario)
  if (withheld !== undefined) lines.push('', text(withheld))
  lines.push(...printedBlocks(scenario))
  return lines
}

/** The report as GitHub-flavoured Markdown: headline, summary table, then one section per failed scenario. */
export function renderMarkdown(report: Report): string {
  const lines = [`# ${STATUS_MARK[reportStatus(report)]} loadrace: ${headline(report)}`, '']
  if (!report.complete) lines.push('> [!WARNING]', `> **${text(INCOMPLETE_NOTICE)}**`, '')
  const shard = shardNotice(report)
  if (shard !== undefined) lines.push(`> ${text(shard)}`, '')
  lines.push(
    `**${report.summary.interleavings} interleavings** in ${formatDuration(report.summary.durationMs)} · ${text(optionsLine(report))}`,
    '',
    ...summaryTable(report),
    ...guaranteeLegend(report),
    ...skippedList(report),
    ...systemList(report),
  )
  for (const scenario of failedScenarios(report)) lines.push(...failureSection(scenario))
  return `${lines.join('\n')}\n`
}
