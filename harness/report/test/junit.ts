import { escapeXmlAttribute, escapeXmlText } from '../escape.ts'
import type { TestReport } from '../test-report.ts'
import { findingLines } from './present.ts'

/** `junit.xml` of a test run: one testcase per test, a finding a failure with its blame, replay and the suite's message; a partial verdict says so. */
export function renderTestJunit(report: TestReport): string {
  const cases = report.tests.map((test) => {
    const open = `    <testcase classname="${escapeXmlAttribute(test.file)}" name="${escapeXmlAttribute(test.name)}">`
    if (test.verdict === 'skipped') return `${open}<skipped/></testcase>`
    if (test.verdict === 'holds') return test.partial === undefined ? `${open}</testcase>` : `${open}<system-out>${escapeXmlText(`partial: ${test.partial}`)}</system-out></testcase>`
    const failure = test.failure ?? test.message
    const body = [...findingLines(test), ...failure === undefined ? [] : ['', failure]].join('\n')
    return `${open}<failure message="${escapeXmlAttribute(test.verdict)}">${escapeXmlText(body)}</failure></testcase>`
  })
  const failures = report.tests.filter(test => test.verdict !== 'holds' && test.verdict !== 'skipped').length
  return ['<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loadrace test" tests="${report.tests.length}" failures="${failures}">`,
    `  <testsuite name="${escapeXmlAttribute(report.command.join(' '))}" tests="${report.tests.length}" failures="${failures}" skipped="${report.summary.skipped}">`,
    ...cases, '  </testsuite>', '</testsuites>', ''].join('\n')
}
