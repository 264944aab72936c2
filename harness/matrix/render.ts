import { escapeMarkdown, markdownCode } from '../report/escape.ts'
import { replayCommand } from '../report/present.ts'
import type { Verdict } from '../verdict/verdict.ts'
import type { CellExpectation } from './expectations.ts'
import { RULES } from './expectations.ts'
import type { MatrixCell, MatrixReport } from './matrix-report.ts'

/** Verdicts as the table abbreviates them. */
const SHORT: Readonly<Record<Verdict, string>> = {
  deterministic: 'det',
  divergent: 'div',
  uncontrolled: 'unc',
  'harness-fault': 'fault',
  'host-dependent': 'host',
  stuck: 'stuck',
  skipped: 'skip',
  error: 'error',
}

/** The legend under every rendering of the table. */
export const LEGEND = [
  'Each cell: the verdict of the sweep, then in parentheses what the rules expect; ✗ marks a cell that does not meet its expectation (see its problems); ! a cell not judged because loadrace failed to hold what it controls (a harness fault: exit 3).',
  'det deterministic · div divergent · unc uncontrolled (a rerun of one interleaving gave other bytes) · fault harness fault (loadrace failed to hold a timer, clock, process or socket: not a verdict, exit 3) · stuck. Every expectation is derived from the scenario\'s definition and the RFC; on the scenario\'s own policy the cell is its own sweep, which must also meet its expect block and golden.',
  '·header / ·errors: the part of the projection a divergence must first differ in · g≠: the projection differs from the scenario\'s committed canonical golden.',
]

function label(verdict: Verdict, expected: CellExpectation, golden: boolean): string {
  const part = expected.part !== undefined && verdict === 'divergent' ? `·${expected.part}` : ''
  return `${SHORT[verdict]}${part}${golden ? ' g≠' : ''}`
}

/** One cell as the table shows it, e.g. `div·header (div·header)` or `det (div) ✗`. */
export function cellText(cell: MatrixCell): string {
  const expected = cell.expected
  const actual = label(cell.verdict, expected, expected.golden !== undefined && cell.golden === 'mismatch')
  const wanted = label(expected.verdict, expected, expected.golden === 'mismatch')
  return `${actual} (${wanted})${cell.match ? '' : cell.harnessFault === true ? ' !' : ' ✗'}`
}

/** The table: a header row (`scenario`, then the variants), then one row per scenario. Missing cells (an interrupted run) are blank. */
export function matrixRows(report: MatrixReport): string[][] {
  const variants = report.options.variants
  const header = ['scenario', ...variants]
  const rows = report.scenarios.map(scenario => [
    scenario,
    ...variants.map(variant => {
      const cell = report.cells.find(candidate => candidate.scenario === scenario && candidate.variant === variant)
      return cell ? cellText(cell) : ''
    }),
  ])
  return [header, ...rows]
}

/** `47 of 50 cells match their expectation`. */
export function matrixHeadline(report: MatrixReport): string {
  const { cells, matched, harnessFaults } = report.summary
  const incomplete = report.complete ? '' : ' · INCOMPLETE (interrupted)'
  const faults = harnessFaults > 0 ? ` · ${harnessFaults} not judged: harness fault` : ''
  return `${matched} of ${cells} cell${cells === 1 ? '' : 's'} match their expectation${faults}${incomplete}`
}

/** The cells that do not meet their expectation, and those not judged for a harness fault. */
export function mismatchedCells(report: MatrixReport): MatrixCell[] {
  return report.cells.filter(cell => !cell.match)
}

/** `matrix.json`: the report, pretty-printed. */
export function renderMatrixJson(report: MatrixReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}

function markdownRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`
}

/** The table and the legend in Markdown (no run details): what `docs/matrix.md` and the report share. */
export function matrixTableMarkdown(report: MatrixReport): string {
  const [header, ...rows] = matrixRows(report)
  const lines = [
    markdownRow(header!.map(escapeMarkdown)),
    markdownRow(header!.map(() => '---')),
    ...rows.map(row => markdownRow(row.map((text, i) => (i === 0 ? markdownCode(text, { inTable: true }) : escapeMarkdown(text))))),
    '',
    LEGEND.map(escapeMarkdown).join('\n\n'),
  ]
  return `${lines.join('\n')}\n`
}

/** One line per variant row: its rule and the RFC sentence it demonstrates. */
export function rowExplanations(report: MatrixReport): string {
  const lines = report.options.variants.map(variant => `- **${variant}** — ${escapeMarkdown(RULES[variant].rule)}. RFC: “${escapeMarkdown(RULES[variant].rfc)}”`)
  return `${lines.join('\n')}\n`
}

/** `matrix.md`: headline, table, legend, the rule of each row, and every mismatch with its replay command. */
export function renderMatrixMarkdown(report: MatrixReport): string {
  const { strategy, seed, budget } = report.options
  const parts = [
    '# loadrace matrix: every ordering variant over every scenario',
    '',
    `${report.summary.mismatched === 0 && report.complete ? '✅' : '❌'} ${escapeMarkdown(matrixHeadline(report))} · strategy ${escapeMarkdown(strategy)} · seed ${markdownCode(seed)} · budget ${budget}`,
    '',
    matrixTableMarkdown(report),
    '## Rows',
    '',
    rowExplanations(report),
  ]
  const mismatched = mismatchedCells(report)
  if (mismatched.length > 0) {
    parts.push('## Cells that do not meet their expectation', '')
    for (const cell of mismatched) {
      parts.push(`- **${cell.variant}** on ${markdownCode(cell.scenario)}:`)
      for (const problem of cell.problems) parts.push(`  - ${escapeMarkdown(problem)}`)
      if (cell.token !== null) parts.push(`  - replay: ${markdownCode(replayCommand(cell.token, cell.file))}`)
    }
    parts.push('')
  }
  return parts.join('\n')
}
