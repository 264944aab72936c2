import { escapeMarkdown, markdownCode } from '../report/escape.ts'
import { replayCommand } from '../report/present.ts'
import type { Aspect, AspectDifference, ScenarioComparison, SeenValue, TargetDiffReport } from './types.ts'

/** How each aspect is named in text. */
export const ASPECT_LABEL: Readonly<Record<Aspect, string>> = {
  tools: 'header tool order',
  outcome: 'outcome',
  errors: 'error messages',
}

function shown(values: readonly SeenValue[]): string {
  return values.length === 0 ? 'nothing else' : values.map(seen => `${JSON.stringify(seen.value)} (${seen.token})`).join('; ')
}

/** One difference in a line: `header tool order: only reference showed …; only dsh showed …`. */
export function differenceText(difference: AspectDifference, targets: readonly [string, string]): string {
  return `${ASPECT_LABEL[difference.aspect]}: only ${targets[0]} showed ${shown(difference.left)} · only ${targets[1]} showed ${shown(difference.right)}`
}

/** `same` or the differing aspects, e.g. `differs: header tool order, outcome`. */
export function comparisonResult(comparison: ScenarioComparison): string {
  if (comparison.differences.length === 0) return 'same'
  return `differs: ${comparison.differences.map(difference => ASPECT_LABEL[difference.aspect]).join(', ')}`
}

/** The table: a header row, then one row per compared scenario (scenario, each target's verdict, result). */
export function comparisonRows(report: TargetDiffReport): string[][] {
  const [left, right] = report.targets
  return [
    ['scenario', left, right, 'result'],
    ...report.compared.map(comparison => [comparison.scenario, comparison.verdicts[0], comparison.verdicts[1], comparisonResult(comparison)]),
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

/** `diff-targets.md`: headline, one row per compared scenario, every difference with replay commands, the skipped pairs. */
export function renderDiffMarkdown(report: TargetDiffReport): string {
  const [header, ...rows] = comparisonRows(report)
  const { strategy, seed, budget } = report.options
  const lines = [
    `# loadrace diff-targets: ${report.targets.join(' vs ')}`,
    '',
    `${report.summary.differing === 0 && report.complete ? '✅' : '❌'} ${escapeMarkdown(diffHeadline(report))} · strategy ${escapeMarkdown(strategy)} · seed ${markdownCode(seed)} · budget ${budget}`,
    '',
    'Compared per scenario, over the distinct outputs of each sweep: the header tool order, the outcome kind, and the error messages of misconfigurations (load errors and turn errors).',
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
        for (const seen of [...difference.left, ...difference.right]) lines.push(`  - replay: ${markdownCode(replayCommand(seen.token, comparison.file))}`)
      }
      lines.push('')
    }
  }
  if (report.skipped.length > 0) {
    lines.push('## Skipped', '', ...skippedLines(report).map(line => `- ${escapeMarkdown(line)}`), '')
  }
  return lines.join('\n')
}
