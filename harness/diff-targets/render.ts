import { escapeMarkdown, markdownCode } from '../report/escape.ts'
import { replayCommand } from '../report/present.ts'
import { NORMALISATIONS } from './normalisations.ts'
import type { TargetName } from '../targets/target.ts'
import type { ProjectionDifference, ScenarioComparison, TargetDiffReport } from './target-diff-report.ts'

/** What is compared, in a sentence (help text, Markdown). */
export const COMPARED_TEXT = 'Compared per scenario, on the same interleavings (the first of every distinct output of either sweep): the '
  + 'request-header fold (tool names, descriptions, parameters, key order), every dispatched request, the sequence of '
  + 'session event types, agent/status and agent/error records in order, load errors in order, the outcome and the stuck '
  + 'state, and how the sweeps split their interleavings into distinct outputs. Only the declared normalisations apply.'

/** Longest rendering of one value in a difference line. */
const MAX_VALUE = 120

function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text.length <= MAX_VALUE ? text : `${text.slice(0, MAX_VALUE - 1)}…`
}

/** One difference in a line: `header.tools[0].description: reference "a" · dsh "b"`, or the key orders, or who alone has it. */
export function differenceText(difference: ProjectionDifference, targets: readonly [string, string]): string {
  const [left, right] = targets
  switch (difference.kind) {
    case 'key-order':
      return `${difference.path}: keys in another order: ${left} ${shown(difference.left)} · ${right} ${shown(difference.right)}`
    case 'missing':
      return difference.left === undefined
        ? `${difference.path}: only ${right} has ${shown(difference.right)}`
        : `${difference.path}: only ${left} has ${shown(difference.left)}`
    case 'value':
      return `${difference.path}: ${left} ${shown(difference.left)} · ${right} ${shown(difference.right)}`
  }
}

/** `same`, or how many differences and in which parts, e.g. `differs: 3 (header, requests)`. */
export function comparisonResult(comparison: ScenarioComparison): string {
  const count = comparison.differences.length + comparison.omitted
  if (count === 0) return 'same'
  const parts = [...new Set(comparison.differences.map(difference => difference.path.split(/[.[]/)[0]))]
  return `differs: ${count} (${parts.join(', ')})`
}

/** The table: a header row, then one row per compared scenario (scenario, each target's verdict, interleavings compared, result). */
export function comparisonRows(report: TargetDiffReport): string[][] {
  const [left, right] = report.targets
  return [
    ['scenario', left, right, 'compared', 'result'],
    ...report.compared.map(comparison => [comparison.scenario, comparison.verdicts[0], comparison.verdicts[1], String(comparison.compared), comparisonResult(comparison)]),
  ]
}

/** `2 of 19 scenarios differ · 8 skipped`. */
export function diffHeadline(report: TargetDiffReport): string {
  const { compared, differing, skipped } = report.summary
  const incomplete = report.complete ? '' : ' · INCOMPLETE (interrupted)'
  return `${differing} of ${compared} compared scenario${compared === 1 ? '' : 's'} differ · ${skipped} skipped${incomplete}`
}

/** The skipped pairs, one line each: `scenario (target): reason`. */
export function skippedLines(report: TargetDiffReport): string[] {
  return report.skipped.map(pair => `${pair.scenario} (${pair.target}): ${pair.reason}`)
}

/** `diff-targets.json`: the report, pretty-printed. */
export function renderDiffJson(report: TargetDiffReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}

function markdownRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`
}

/** The normalisation table in Markdown: what, where, each target's value, why. */
export function normalisationTable(targets: readonly [TargetName, TargetName]): string[] {
  return [
    markdownRow(['normalised', 'where', ...targets.map(escapeMarkdown), 'why']),
    markdownRow(['---', '---', '---', '---', '---']),
    ...NORMALISATIONS.map(normalisation => markdownRow([
      escapeMarkdown(`${normalisation.name} → ${normalisation.placeholder}`),
      normalisation.paths.map(path => markdownCode(path, { inTable: true })).join(', '),
      ...targets.map(target => markdownCode(normalisation.value(target), { inTable: true })),
      escapeMarkdown(`${normalisation.match === 'prefix' ? 'the leading sentence; ' : ''}${normalisation.reason}`),
    ])),
  ]
}

/** `diff-targets.md`: headline, what is compared and normalised, one row per compared scenario, every difference with its replay command, the skipped pairs. */
export function renderDiffMarkdown(report: TargetDiffReport): string {
  const [header, ...rows] = comparisonRows(report)
  const { strategy, seed, budget } = report.options
  const lines = [
    `# loadrace diff-targets: ${report.targets.join(' vs ')}`,
    '',
    `${report.summary.differing === 0 && report.complete ? '✅' : '❌'} ${escapeMarkdown(diffHeadline(report))} · strategy ${escapeMarkdown(strategy)} · seed ${markdownCode(seed)} · budget ${budget}`,
    '',
    escapeMarkdown(COMPARED_TEXT),
    '',
    ...normalisationTable(report.targets),
    '',
    markdownRow(header!.map(escapeMarkdown)),
    markdownRow(header!.map(() => '---')),
    ...rows.map(row => markdownRow(row.map((text, i) => (i === 0 ? markdownCode(text, { inTable: true }) : escapeMarkdown(text))))),
    '',
  ]
  const differing = report.compared.filter(comparison => comparison.differences.length > 0)
  if (differing.length > 0) {
    lines.push('## Differences', '')
    for (const comparison of differing) {
      lines.push(`### ${markdownCode(comparison.scenario)}`, '')
      for (const difference of comparison.differences) {
        lines.push(`- ${escapeMarkdown(differenceText(difference, report.targets))}`)
        if (difference.token !== '') lines.push(`  - replay: ${markdownCode(replayCommand(difference.token, comparison.file))}`)
      }
      if (comparison.omitted > 0) lines.push(`- … and ${comparison.omitted} more, not listed`)
      lines.push('')
    }
  }
  if (report.skipped.length > 0) {
    lines.push('## Skipped', '', ...skippedLines(report).map(line => `- ${escapeMarkdown(line)}`), '')
  }
  return lines.join('\n')
}
