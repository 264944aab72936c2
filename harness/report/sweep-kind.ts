import { renderHtml } from './html.ts'
import { renderJson } from './json.ts'
import { renderJunit } from './junit.ts'
import type { ReportKind } from './kind.ts'
import { renderMarkdown } from './markdown.ts'
import { githubAnnotationsReporter } from './reporters/github-annotations.ts'
import { terminalReporter } from './reporters/terminal.ts'
import type { Report } from './sweep-report.ts'

/** A sweep's report (`report.json` with `"report": "sweep"`), as the reporter map builds its reporters. */
export const sweepReportKind: ReportKind<Report> = {
  name: 'sweep',
  render: { json: renderJson, md: renderMarkdown, junit: renderJunit, html: renderHtml },
  terminal: (out, _progress, setup) => terminalReporter(out, setup),
  annotations: githubAnnotationsReporter,
}
