import { markdownCode, markdownFence } from '../escape.ts'
import { TEST_VERDICT_MEANING, TEST_VERDICTS } from '../../verdict/test-verdict.ts'
import type { TestReport } from '../test-report.ts'
import { bootReachText, detailedTests, findingLines, reachText, rowsText, testHeadline, testTitle, verdictText } from './present.ts'

/** `report.md` of a test run (also the job summary): the headline, the verdict table, each configuration's plan, the findings, every test. */
export function renderTestMarkdown(report: TestReport): string {
  const s = report.summary
  const lines = [
    '# loadrace test',
    '',
    `${markdownCode(report.command.join(' '))} in ${markdownCode(report.cwd)}${report.complete ? '' : ' (**incomplete**)'}: ${testHeadline(report)}.`,
    '',
    '| verdict | tests | meaning |',
    '| --- | --- | --- |',
    ...TEST_VERDICTS.map(verdict => `| ${verdict} | ${s[verdict]} | ${TEST_VERDICT_MEANING[verdict]} |`),
    '',
  ]
  if (report.configurations.length > 0) {
    lines.push('## Configurations', '', '| configuration | entries | plugins | rows | over | processes | guarantee |', '| --- | --- | --- | --- | --- | --- | --- |',
      ...report.configurations.map(c => `| ${markdownCode(c.configuration, { inTable: true })} | ${c.entries.length} | ${c.units ?? '—'} | ${rowsText(c)} | ${c.over} | ${c.processes} | ${[c.guarantee, reachText(c), c.note].filter(part => part !== undefined).join('; ')} |`), '')
  }
  if (report.reach !== undefined) lines.push('## Reach', '', `${bootReachText(report.reach)}.`, '')
  const findings = detailedTests(report)
  if (findings.length > 0) {
    lines.push('## Findings', '')
    for (const test of findings) {
      lines.push(`### ${verdictText(test)}: ${markdownCode(testTitle(test))}`, '')
      for (const line of findingLines(test)) lines.push(`- ${line.startsWith('replay: ') ? `replay: ${markdownCode(line.slice(8))}` : line}`)
      const failure = test.failure ?? test.message
      if (failure !== undefined) lines.push('', markdownFence(failure))
      lines.push('')
    }
  }
  if (report.tests.length > 0) {
    lines.push('## Every test', '', '| test | verdict |', '| --- | --- |', ...report.tests.map(test => `| ${markdownCode(testTitle(test), { inTable: true })} | ${verdictText(test)} |`), '')
  }
  if (report.processNotes.length > 0) {
    lines.push('## Processes the plan did not foresee', '', ...report.processNotes.map(note => `- ${note.run}, pid ${note.pid} (${note.configuration ?? 'no configuration'}): ${note.kind === 'unknown' ? 'a configuration the plan has no row for; it ran unperturbed' : `released ${note.inversion?.[1]} before ${note.inversion?.[0]}, against its row, though both were waiting (a module slower than the preload waits for); realised ${note.realised.join(',')}`}`), '')
  }
  return `${lines.join('\n')}\n`
}
