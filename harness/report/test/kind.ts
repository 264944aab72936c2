import type { ReportKind } from '../kind.ts'
import type { TestReport } from '../test-report.ts'
import { testAnnotationsReporter } from './annotations.ts'
import { renderTestHtml } from './html.ts'
import { renderTestJunit } from './junit.ts'
import { renderTestMarkdown } from './markdown.ts'
import { testTerminalReporter } from './terminal.ts'

/** `report.json` of `loadrace test`: built field by field in its contract's order, so it serialises as declared. */
export function renderTestJson(report: TestReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}

/** A test run's report (`"report": "test"`), as the reporter map builds its reporters. */
export const testReportKind: ReportKind<TestReport> = {
  name: 'test',
  render: { json: renderTestJson, md: renderTestMarkdown, junit: renderTestJunit, html: renderTestHtml },
  terminal: (out, progress) => testTerminalReporter(out, progress),
  annotations: testAnnotationsReporter,
}
