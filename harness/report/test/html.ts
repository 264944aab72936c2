import { escapeHtml } from '../escape.ts'
import { TEST_VERDICTS } from '../../verdict/test-verdict.ts'
import type { TestReport } from '../test-report.ts'
import { findingLines, rowsText, testHeadline, testTitle, verdictText } from './present.ts'

/** `report.html` of a test run: one page, no script, everything escaped. */
export function renderTestHtml(report: TestReport): string {
  const h = escapeHtml
  const rows = report.tests.map(test => `<tr class="${h(test.verdict)}"><td><code>${h(testTitle(test))}</code></td><td>${h(verdictText(test))}</td><td>${findingLines(test).map(line => h(line)).join('<br>')}${(test.failure ?? test.message) ? `<pre>${h(test.failure ?? test.message ?? '')}</pre>` : ''}</td></tr>`)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>loadrace test</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:1200px;margin:auto;padding:1.5rem} table{border-collapse:collapse} td,th{border:1px solid #ccc;padding:.3rem .6rem;vertical-align:top;text-align:left} pre{white-space:pre-wrap;background:#f6f8fa;padding:.5rem} tr.pins-one td:nth-child(2),tr.flaky td:nth-child(2),tr.fails td:nth-child(2){color:#cf222e;font-weight:600}</style>
</head><body>
<h1>loadrace test</h1>
<p><code>${h(report.command.join(' '))}</code>: ${h(testHeadline(report))}</p>
<p>${TEST_VERDICTS.map(verdict => `${h(verdict)}: ${report.summary[verdict]}`).join(' · ')}</p>
<h2>Configurations</h2>
<table><tr><th>configuration</th><th>entries</th><th>rows</th><th>guarantee</th></tr>${report.configurations.map(c => `<tr><td><code>${h(c.configuration)}</code></td><td>${c.entries.length}</td><td>${h(rowsText(c))}</td><td>${h(c.guarantee)}</td></tr>`).join('')}</table>
<h2>Tests</h2>
<table><tr><th>test</th><th>verdict</th><th>details</th></tr>${rows.join('\n')}</table>
</body></html>
`
}
