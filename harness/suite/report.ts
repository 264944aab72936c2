import { VERSION } from '../package/version.ts'
import { escapeHtml, escapeXmlAttribute, escapeXmlText, markdownCode, markdownFence, shellQuote, shellWord } from '../report/escape.ts'
import { formatGuarantee } from '../strategies/index.ts'
import type { ProcessRecord } from '../preload/protocol.js'
import { writeFilesAtomically } from '../report/write.ts'
import type { TestCommand } from './command-line.ts'
import type { ProcessNote, SuiteOutcome } from './test-suite.ts'
import { TEST_VERDICT_MEANING, TEST_VERDICTS, type TestFinding, type TestVerdict } from './verdict.ts'

/**
 * The report of `loadrace test`: `report.json` (every test with its verdict,
 * its result in every run, and for a `pins-one` its blame, failure message
 * and replay command; every run with the rows it gave), `report.md`,
 * `report.html` and `junit.xml` (one testcase per test).
 */

/** One run of the command as the report keeps it: the rows it gave, and what each process booted and realised. */
export interface SuiteReportRun {
  readonly name: string
  readonly exitCode: number | null
  readonly durationMs: number
  readonly rows: Readonly<Record<string, readonly string[]>>
  readonly log: string
  readonly processes: readonly Pick<ProcessRecord, 'configuration' | 'requested' | 'released'>[]
}

export interface SuiteReport {
  readonly report: 'test'
  readonly loadrace: string
  readonly command: readonly string[]
  readonly cwd: string
  readonly options: { strategy: string, budget: number, seed: string, strength: number, reruns: number, shard?: string }
  readonly summary: Readonly<Record<TestVerdict, number>> & { tests: number, runs: number, reruns: number, durationMs: number }
  readonly configurations: readonly { configuration: string, entries: readonly string[], rows: number, fromReference?: boolean, processes: number, guarantee: string }[]
  readonly tests: readonly (TestFinding & { replay?: string })[]
  readonly runs: readonly SuiteReportRun[]
  readonly processNotes: readonly ProcessNote[]
}

/** The command that reruns `test` alone under the failing order of its blame (or of its failing side). */
export function replayCommand(command: TestCommand, finding: TestFinding): string | undefined {
  const pinned = finding.pinsOne
  if (pinned === undefined) return undefined
  const orders = pinned.blame ? { [pinned.blame.configuration]: pinned.blame.failing } : pinned.failing.orders
  const parts = ['npx', 'loadrace', 'test']
  for (const [configuration, order] of Object.entries(orders)) parts.push('--order', shellWord(`${configuration}=${order.join(',')}`))
  parts.push('--only', shellQuote(finding.name), '--', ...command.argv.map(shellWord))
  return parts.join(' ')
}

/** The report of an outcome. */
export function suiteReport(outcome: SuiteOutcome, command: TestCommand, cwd: string, options: SuiteReport['options']): SuiteReport {
  const counts = Object.fromEntries(TEST_VERDICTS.map(verdict => [verdict, outcome.tests.filter(test => test.verdict === verdict).length])) as Record<TestVerdict, number>
  const rowsOf = (processes: SuiteOutcome['reference']['processes']) => {
    const rows: Record<string, readonly string[]> = {}
    for (const record of processes) if (record.configuration !== null && record.row !== undefined) rows[record.configuration] ??= record.row
    return rows
  }
  return {
    report: 'test',
    loadrace: VERSION,
    command: command.argv,
    cwd,
    options,
    summary: { tests: outcome.tests.length, ...counts, runs: outcome.runs.length + 1, reruns: outcome.reruns, durationMs: outcome.durationMs },
    configurations: outcome.configurations.map(plan => ({ ...plan, guarantee: formatGuarantee(plan.guarantee) })),
    tests: outcome.tests.map(test => {
      const replay = replayCommand(command, test)
      return replay === undefined ? test : { ...test, replay }
    }),
    runs: [outcome.reference, ...outcome.runs].map(run => ({
      name: run.name,
      exitCode: run.exitCode,
      durationMs: run.durationMs,
      rows: rowsOf(run.processes),
      log: run.log,
      processes: run.processes.map(({ configuration, requested, released }) => ({ configuration, requested, released })),
    })),
    processNotes: outcome.processNotes,
  }
}

/** `file › name`. */
/** A plan's row count, saying when the first row was the reference run's own order. */
function rowsText(plan: { rows: number, fromReference?: boolean }): string {
  return plan.fromReference === true ? `${plan.rows} (the first: the reference run's order)` : String(plan.rows)
}

function title(test: { file: string, name: string }): string {
  return test.file === '' ? test.name : `${test.file} › ${test.name}`
}

/** The lines said under a test in the terminal and in Markdown: what flipped it, and how to replay it. */
export function findingLines(test: SuiteReport['tests'][number]): string[] {
  const lines: string[] = []
  const pinned = test.pinsOne
  if (pinned !== undefined) {
    if (pinned.naturalOrderFails) lines.push('this machine\'s natural load order (the reference run) is the failing side')
    if (pinned.blame) {
      lines.push(`blame: ${pinned.blame.entries[0]} ↔ ${pinned.blame.entries[1]} in ${pinned.blame.configuration} (passes with ${pinned.blame.entries[0]} first, fails with ${pinned.blame.entries[1]} first; ${pinned.blame.runs} runs alone)`)
    } else if (pinned.unblamed) {
      lines.push(`no pair blamed: ${pinned.unblamed}`)
    }
    lines.push(`passes in ${pinned.passing.run}, fails in ${pinned.failing.run}`)
  }
  if (test.flaky) lines.push(`in ${test.flaky.run} it ${test.flaky.first}; rerun alone under the same load order it ${test.flaky.rerun}`)
  if (test.replay) lines.push(`replay: ${test.replay}`)
  return lines
}

export function renderSuiteJson(report: SuiteReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}

export function renderSuiteMarkdown(report: SuiteReport): string {
  const s = report.summary
  const lines = [
    '# loadrace test',
    '',
    `${markdownCode(report.command.join(' '))} in ${markdownCode(report.cwd)}: ${s.tests} tests, ${s.runs} runs of the command and ${s.reruns} reruns alone.`,
    '',
    '| verdict | tests | meaning |',
    '| --- | --- | --- |',
    ...TEST_VERDICTS.map(verdict => `| ${verdict} | ${s[verdict]} | ${TEST_VERDICT_MEANING[verdict]} |`),
    '',
    '## Configurations',
    '',
    '| configuration | entries | rows | processes | guarantee |',
    '| --- | --- | --- | --- | --- |',
    ...report.configurations.map(c => `| ${markdownCode(c.configuration, { inTable: true })} | ${c.entries.length} | ${rowsText(c)} | ${c.processes} | ${c.guarantee} |`),
    '',
  ]
  const findings = report.tests.filter(test => test.verdict !== 'holds' && test.verdict !== 'skipped')
  if (findings.length > 0) {
    lines.push('## Findings', '')
    for (const test of findings) {
      lines.push(`### ${test.verdict}: ${markdownCode(title(test))}`, '')
      for (const line of findingLines(test)) lines.push(`- ${line.startsWith('replay: ') ? `replay: ${markdownCode(line.slice(8))}` : line}`)
      if (test.failure ?? test.message) lines.push('', markdownFence(test.failure ?? test.message ?? ''))
      lines.push('')
    }
  }
  lines.push('## Every test', '', '| test | verdict |', '| --- | --- |', ...report.tests.map(test => `| ${markdownCode(title(test), { inTable: true })} | ${test.verdict} |`), '')
  if (report.processNotes.length > 0) {
    lines.push('## Processes the plan did not foresee', '', ...report.processNotes.map(note => `- ${note.run}, pid ${note.pid} (${note.configuration ?? 'no configuration'}): ${note.kind === 'unknown' ? 'a configuration the plan has no row for; it ran unperturbed' : `released ${note.inversion?.[1]} before ${note.inversion?.[0]}, against its row, though both were waiting (a module slower than the preload waits for); realised ${note.realised.join(',')}`}`), '')
  }
  return `${lines.join('\n')}\n`
}

export function renderSuiteJunit(report: SuiteReport): string {
  const cases = report.tests.map((test) => {
    const open = `    <testcase classname="${escapeXmlAttribute(test.file)}" name="${escapeXmlAttribute(test.name)}">`
    if (test.verdict === 'holds') return `${open}</testcase>`
    if (test.verdict === 'skipped') return `${open}<skipped/></testcase>`
    const body = [...findingLines(test), ...(test.failure ?? test.message) ? ['', test.failure ?? test.message ?? ''] : []].join('\n')
    return `${open}<failure message="${escapeXmlAttribute(test.verdict)}">${escapeXmlText(body)}</failure></testcase>`
  })
  const failures = report.tests.filter(test => test.verdict !== 'holds' && test.verdict !== 'skipped').length
  return ['<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loadrace test" tests="${report.tests.length}" failures="${failures}">`,
    `  <testsuite name="${escapeXmlAttribute(report.command.join(' '))}" tests="${report.tests.length}" failures="${failures}" skipped="${report.summary.skipped}">`,
    ...cases, '  </testsuite>', '</testsuites>', ''].join('\n')
}

export function renderSuiteHtml(report: SuiteReport): string {
  const h = escapeHtml
  const rows = report.tests.map(test => `<tr class="${h(test.verdict)}"><td><code>${h(title(test))}</code></td><td>${h(test.verdict)}</td><td>${findingLines(test).map(line => h(line)).join('<br>')}${(test.failure ?? test.message) ? `<pre>${h(test.failure ?? test.message ?? '')}</pre>` : ''}</td></tr>`)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>loadrace test</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:1200px;margin:auto;padding:1.5rem} table{border-collapse:collapse} td,th{border:1px solid #ccc;padding:.3rem .6rem;vertical-align:top;text-align:left} pre{white-space:pre-wrap;background:#f6f8fa;padding:.5rem} tr.pins-one td:nth-child(2),tr.flaky td:nth-child(2),tr.fails td:nth-child(2){color:#cf222e;font-weight:600}</style>
</head><body>
<h1>loadrace test</h1>
<p><code>${h(report.command.join(' '))}</code>: ${report.summary.tests} tests, ${report.summary.runs} runs, ${report.summary.reruns} reruns alone.</p>
<p>${TEST_VERDICTS.map(verdict => `${h(verdict)}: ${report.summary[verdict]}`).join(' · ')}</p>
<h2>Configurations</h2>
<table><tr><th>configuration</th><th>entries</th><th>rows</th><th>guarantee</th></tr>${report.configurations.map(c => `<tr><td><code>${h(c.configuration)}</code></td><td>${c.entries.length}</td><td>${h(rowsText(c))}</td><td>${h(c.guarantee)}</td></tr>`).join('')}</table>
<h2>Tests</h2>
<table><tr><th>test</th><th>verdict</th><th>details</th></tr>${rows.join('\n')}</table>
</body></html>
`
}

/** Writes every format of the report into `dir`, atomically; the paths written. */
export function writeSuiteReport(dir: string, report: SuiteReport): Promise<string[]> {
  return writeFilesAtomically(dir, [
    { file: 'report.json', content: renderSuiteJson(report) },
    { file: 'report.md', content: renderSuiteMarkdown(report) },
    { file: 'junit.xml', content: renderSuiteJunit(report) },
    { file: 'report.html', content: renderSuiteHtml(report) },
  ])
}

/** The closing lines of the terminal: the totals, each configuration's plan and guarantee, the files written. */
export function suiteSummary(report: SuiteReport, written: readonly string[]): string {
  const s = report.summary
  const lines = [
    '',
    `${s.tests} tests: ${s.holds} hold, ${s['pins-one']} pins-one, ${s.fails} fail, ${s.flaky} flaky, ${s.skipped} skipped · ${s.runs} runs of the command, ${s.reruns} reruns alone, ${(s.durationMs / 1000).toFixed(0)} s`,
    ...report.configurations.map(c => `  ${c.configuration}: ${c.entries.length} entries, ${c.rows} rows${c.fromReference === true ? ' (the first: the reference run\'s order)' : ''}, ${c.guarantee}`),
    'Report:',
    ...written.map(file => `  ${file}`),
  ]
  return `${lines.join('\n')}\n`
}
