import { escapeHtml as h } from './escape.ts'
import {
  goldenWithheldSentence,
  printedHeading,
  printedLines,
  printedOmission,
  partlyInactiveSentence,
  INCOMPLETE_NOTICE,
  MAX_OUTPUTS_LISTED,
  VERDICT_MEANING,
  blameSentence,
  movedSentence,
  coverage,
  expectation,
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
  totalsOf,
  verdictText,
} from './present.ts'
import type { ReportStatus, ScenarioResult } from './present.ts'
import type { Divergence } from '../verdict/divergence.ts'
import type { Report } from './sweep-report.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import { systemsOf } from './system.ts'

/**
 * `report.html`: one self-contained page (inline CSS, no script, no network)
 * with the totals, the summary table, and for every failed or divergent
 * scenario its blame pair, replay commands, diff and plugin × plugin swap
 * matrix. A content security policy forbids everything but the inline style,
 * so even a missed escape could not load or run anything.
 */

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #fff; --line: #d1d9e0; --panel: #f6f8fa;
  --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --add: #dafbe1; --del: #ffebe9; --hunk: #ddf4ff; --mark: #cf222e; --blame: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #3d444d; --panel: #151b23;
  --ok: #3fb950; --bad: #f85149; --warn: #d29922; --add: #12261e; --del: #25171c; --hunk: #121d2f; --mark: #f85149; --blame: #3b2e00; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 1.5rem; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; } h3 { font-size: 1rem; margin: 1.25rem 0 .4rem; }
code, pre { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; overflow-x: auto; white-space: pre; }
pre.command { user-select: all; }
.muted, .place { color: var(--muted); font-size: .9em; }
.banner { border: 2px solid var(--warn); border-radius: 6px; padding: .6rem .8rem; font-weight: 600; color: var(--warn); }
dl.totals { display: flex; flex-wrap: wrap; gap: .5rem 2rem; margin: .75rem 0; }
dl.totals div { display: flex; flex-direction: column; } dl.totals dt { color: var(--muted); font-size: .85em; } dl.totals dd { margin: 0; font-size: 1.3rem; font-weight: 600; }
table { border-collapse: collapse; margin: .4rem 0; } th, td { border: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
thead th { background: var(--panel); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 .5em; border-radius: 1em; font-size: .8em; font-weight: 600; color: #fff; vertical-align: middle; text-transform: uppercase; letter-spacing: .03em; }
.badge.passed { background: var(--ok); } .badge.failed { background: var(--bad); } .badge.skipped { background: var(--muted); } .badge.incomplete { background: var(--warn); }
.golden.match { color: var(--ok); } .golden.mismatch { color: var(--bad); font-weight: 600; } .golden.missing, .golden.withheld { color: var(--warn); }
section.scenario { border-top: 1px solid var(--line); margin-top: 2rem; }
pre.diff span { display: block; } .add { background: var(--add); } .del { background: var(--del); } .hunk { background: var(--hunk); color: var(--muted); } .file { font-weight: 600; }
table.swap-matrix th, table.swap-matrix td { text-align: center; min-width: 1.8rem; padding: .2rem .35rem; }
table.swap-matrix thead th span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; }
table.swap-matrix th[scope="row"] { text-align: right; white-space: nowrap; }
table.swap-matrix td[data-changed="true"] { color: var(--mark); font-weight: 700; }
table.swap-matrix td.diagonal { background: var(--panel); }
table.swap-matrix td.blame { background: var(--blame); outline: 2px solid var(--warn); outline-offset: -2px; }
`

function tag(name: string, attributes: Readonly<Record<string, string>>, content: string): string {
  const rendered = Object.entries(attributes).map(([key, value]) => ` ${key}="${h(value)}"`).join('')
  return `<${name}${rendered}>${content}</${name}>`
}

function code(text: string): string {
  return `<code>${h(text)}</code>`
}

function diffPre(diff: string): string {
  const lines = diff.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const spans = lines.map((line) => {
    const kind = line.startsWith('+++') || line.startsWith('---') ? 'file'
      : line.startsWith('@@') ? 'hunk'
        : line.startsWith('+') ? 'add'
          : line.startsWith('-') ? 'del'
            : 'context'
    return `<span class="${kind}">${h(line)}</span>`
  })
  return `<pre class="diff">${spans.join('')}</pre>`
}

function header(report: Report): string {
  const totals = totalsOf(report)
  const status = reportStatus(report)
  const shard = shardNotice(report)
  const figures: [string, string][] = [
    ['Scenarios', String(totals.scenarios)],
    ['Passed', String(totals.passed)],
    ['Failed', String(totals.failed)],
    ['Skipped', String(totals.skipped)],
    ['Interleavings', String(totals.interleavings)],
    ['Duration', formatDuration(totals.durationMs)],
    ['Complete', report.complete ? 'yes' : 'no'],
  ]
  return [
    '<header>',
    `<h1>${badge(status)} loadrace: ${h(headline(report))}</h1>`,
    report.complete ? '' : tag('p', { class: 'banner', role: 'alert', id: 'incomplete' }, h(INCOMPLETE_NOTICE)),
    shard === undefined ? '' : tag('p', { class: 'banner' }, h(shard)),
    `<dl class="totals">${figures.map(([term, value]) => `<div><dt>${h(term)}</dt><dd>${h(value)}</dd></div>`).join('')}</dl>`,
    tag('p', { class: 'muted' }, h(optionsLine(report))),
    '</header>',
  ].filter((line) => line !== '').join('\n')
}

/** A status word as a coloured badge (words, not emoji: the page must not depend on an emoji font). */
function badge(status: ScenarioResult | ReportStatus): string {
  return tag('span', { class: `badge ${status}` }, h(status))
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function anchorOf(index: number): string {
  return `scenario-${index + 1}`
}

function hasSection(scenario: ScenarioReport): boolean {
  return resultOf(scenario) === 'failed' || (scenario.skipped === undefined && scenario.divergence !== null)
}

function summaryRow(scenario: ScenarioReport, index: number): string {
  const result = resultOf(scenario)
  const skipped = result === 'skipped'
  const name = hasSection(scenario) ? tag('a', { href: `#${anchorOf(index)}` }, h(scenario.name)) : h(scenario.name)
  const cells = [
    `<td>${name}<div class="place">${h(placeOf(scenario))}</div></td>`,
    `<td>${skipped ? 'skipped' : h(verdictText(scenario))}</td>`,
    `<td>${h(expectation(scenario))}</td>`,
    `<td>${skipped ? '—' : h(scenario.guarantee)}</td>`,
    `<td class="num">${skipped ? '—' : h(coverage(scenario))}</td>`,
    `<td>${scenario.golden === 'none' ? '—' : tag('span', { class: `golden ${scenario.golden}` }, h(scenario.golden))}</td>`,
    `<td>${badge(result)}${skipped ? `<div class="place">${h(scenario.skipped ?? '')}</div>` : ''}</td>`,
  ]
  const attributes = { class: result, 'data-scenario': scenario.name, 'data-target': scenario.target, 'data-variant': scenario.variant, 'data-result': result }
  return tag('tr', attributes, cells.join(''))
}

function summary(report: Report): string {
  const head = ['Scenario', 'Verdict', 'Expected', 'Guarantee', 'Explored / space', 'Golden', 'Result']
  const legend = guaranteesUsed(report).map((guarantee) => `<li>${code(guarantee)}: ${h(guaranteeMeaning(guarantee))}</li>`)
  return [
    '<section>',
    '<h2>Scenarios</h2>',
    '<table id="summary">',
    `<thead><tr>${head.map((title) => `<th scope="col">${title}</th>`).join('')}</tr></thead>`,
    `<tbody>\n${report.scenarios.map(summaryRow).join('\n')}\n</tbody>`,
    '</table>',
    legend.length === 0 ? '' : `<ul class="muted">${legend.join('')}</ul>`,
    '</section>',
  ].filter((line) => line !== '').join('\n')
}

/** The systems the scenarios ran on: every package with its version and folder. */
function systemSection(report: Report): string {
  const systems = systemsOf(report)
  if (systems.length === 0) return ''
  const tables = systems.map(({ system, scenarios }) => [
    `<p>${system.own ? "loadrace's own packages" : "The project's packages"}, for ${scenarios.map(name => code(name)).join(', ')}:</p>`,
    '<table class="system">',
    '<thead><tr><th scope="col">Package</th><th scope="col">Version</th><th scope="col">Folder</th></tr></thead>',
    `<tbody>${system.packages.map(item => `<tr><td>${code(item.name)}</td><td>${h(item.version)}</td><td>${code(item.path)}</td></tr>`).join('')}</tbody>`,
    '</table>',
  ].join('\n'))
  return ['<section>', '<h2>System under test</h2>', ...tables, '</section>'].join('\n')
}

/** The plugin × plugin matrix: a cell is marked when exchanging the two plugins in the baseline changes the bytes. */
function swapMatrix(scenario: ScenarioReport, divergence: Divergence): string {
  const { plugins, changed } = divergence.swaps
  const key = (a: string, b: string): string => JSON.stringify([a, b])
  const changedPairs = new Set(changed.flatMap(([a, b]) => [key(a, b), key(b, a)]))
  const [blameA, blameB] = divergence.blame
  const blamePairs = new Set([key(blameA, blameB), key(blameB, blameA)])
  const columns = plugins.map((plugin) => `<th scope="col" title="${h(plugin)}"><span>${h(plugin)}</span></th>`).join('')
  const rows = plugins.map((a) => {
    const cells = plugins.map((b) => {
      const isChanged = a !== b && changedPairs.has(key(a, b))
      const classes = a === b ? 'diagonal' : blamePairs.has(key(a, b)) ? 'blame' : ''
      const attributes: Record<string, string> = { 'data-a': a, 'data-b': b, 'data-changed': String(isChanged) }
      if (classes !== '') attributes.class = classes
      if (isChanged) attributes.title = `swapping ${a} and ${b} changes the bytes`
      return tag('td', attributes, isChanged ? '●' : '')
    })
    return `<tr><th scope="row">${h(a)}</th>${cells.join('')}</tr>`
  })
  const attributes = { class: 'swap-matrix', 'data-scenario': scenario.name, 'data-target': scenario.target, 'data-variant': scenario.variant }
  return [
    '<h3>Swap matrix</h3>',
    '<p class="muted">● marks a pair whose exchange in the baseline interleaving changes the bytes; the blame pair is highlighted.</p>',
    tag('table', attributes, `<thead><tr><th></th>${columns}</tr></thead><tbody>${rows.join('')}</tbody>`),
  ].join('\n')
}

function outputsTable(scenario: ScenarioReport): string {
  if (scenario.outputs.length === 0) return ''
  const listed = scenario.outputs.slice(0, MAX_OUTPUTS_LISTED)
  const rows = listed.map((output) => [
    '<tr>',
    `<td>${tag('code', { title: output.hash }, h(shortHash(output.hash)))}</td>`,
    `<td class="num">${output.count}</td>`,
    `<td>${output.tools.length === 0 ? '<span class="muted">(no header)</span>' : output.tools.map(code).join(', ')}</td>`,
    `<td>${code(output.token)}</td>`,
    '</tr>',
  ].join(''))
  const rest = scenario.outputs.length - listed.length
  return [
    `<h3>Outputs (${scenario.distinctOutputs} distinct)</h3>`,
    '<table class="outputs"><thead><tr><th>Output</th><th>Interleavings</th><th>Tools</th><th>Replay token</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table>`,
    rest > 0 ? `<p class="muted">${rest} more outputs in report.json.</p>` : '',
  ].join('\n')
}

function replayList(scenario: ScenarioReport): string {
  const targets = replayTargets(scenario)
  if (targets.length === 0) return ''
  const items = targets.map(({ label, token }) =>
    `<dt>${h(capitalised(label))}: ${code(token)}</dt><dd>${tag('pre', { class: 'command' }, h(replayCommand(token, scenario.file)))}</dd>`)
  return `<h3>Replay</h3>\n<dl class="replay">${items.join('')}</dl>`
}

function scenarioSection(scenario: ScenarioReport, index: number): string {
  const result = resultOf(scenario)
  const parts = [
    tag('h2', {}, `${badge(result)} ${h(scenario.name)} <span class="place">${h(placeOf(scenario))}</span>`),
    tag('p', { class: 'muted' }, scenarioFacts(scenario).map(h).join(' · ')),
    `<p>Verdict <strong>${h(scenario.verdict)}</strong>: ${h(VERDICT_MEANING[scenario.verdict])}. ` +
      `Outcome ${h(scenario.outcome)}; expected ${h(expectation(scenario))}.</p>`,
  ]
  if (scenario.problems.length > 0) {
    parts.push('<h3>Problems</h3>', `<ul>${scenario.problems.map((problem) => `<li>${h(problem)}</li>`).join('')}</ul>`)
  }
  const divergence = scenario.divergence
  if (divergence !== null) {
    const [a, b] = divergence.blame
    parts.push('<h3>Blame</h3>', tag('p', { class: 'blame' }, `<strong>${code(a)} ⇄ ${code(b)}</strong> ` +
      `${h(blameSentence(divergence))} (part ${code(divergence.part)}, kind ${code(divergence.kind)})`))
    const moved = movedSentence(divergence)
    if (moved !== undefined) parts.push(tag('p', {}, h(moved)))
    const partly = partlyInactiveSentence(divergence)
    if (partly !== undefined) parts.push(tag('p', {}, h(partly)))
  }
  parts.push(replayList(scenario))
  if (divergence !== null) {
    parts.push('<h3>First difference</h3>', diffPre(divergence.firstDifference))
    if (divergence.sections !== undefined) parts.push('<h3>System prompt sections (before → after the swap)</h3>', diffPre(divergence.sections))
    parts.push(`<h3>Diff of the ${h(divergence.part)} (before → after the swap)</h3>`, diffPre(divergence.diff), swapMatrix(scenario, divergence))
  }
  const rerun = scenario.uncontrolled
  if (rerun !== undefined && rerun.part !== null) {
    parts.push(`<h3>Rerun diff of the ${h(rerun.part)} of ${code(rerun.token)} (explored → rerun)</h3>`, diffPre(rerun.diff))
  }
  const fault = scenario.harnessFault
  if (fault !== undefined) {
    parts.push('<h3>Harness fault</h3>', tag('p', { class: 'harness-fault' }, `loadrace failed to hold <strong>${h(fault.resource)}</strong>: not a verdict about the system`))
    if (fault.part !== null) parts.push(`<h3>Diff of the ${h(fault.part)} of ${code(fault.token)} (controlled → order-only)</h3>`, diffPre(fault.diff))
  }
  parts.push(outputsTable(scenario))
  if (scenario.goldenDiff !== undefined) parts.push('<h3>Golden diff (golden → this run)</h3>', diffPre(scenario.goldenDiff))
  const withheld = goldenWithheldSentence(scenario)
  if (withheld !== undefined) parts.push(tag('p', {}, h(withheld)))
  for (const printed of scenario.systemOutput ?? []) {
    const omission = printedOmission(printed)
    parts.push(`<h3>${h(printedHeading(printed))}</h3>`, tag('pre', { class: 'printed' }, h(printedLines(printed).join('\n'))), omission === undefined ? '' : tag('p', {}, h(omission)))
  }
  const attributes = { class: `scenario ${result}`, id: anchorOf(index), 'data-scenario': scenario.name }
  return tag('section', attributes, `\n${parts.filter((part) => part !== '').join('\n')}\n`)
}

/** The report as one self-contained HTML page. */
export function renderHtml(report: Report): string {
  const status = reportStatus(report)
  const sections = report.scenarios.map((scenario, index) => hasSection(scenario) ? scenarioSection(scenario, index) : '')
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>loadrace ${status}: ${h(headline(report))}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    header(report),
    '<main>',
    summary(report),
    systemSection(report),
    ...sections.filter((section) => section !== ''),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n')
}
