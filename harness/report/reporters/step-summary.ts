import { appendFile, stat } from 'node:fs/promises'
import type { ReportKind } from '../kind.ts'
import type { Reporter } from '../reporter.ts'
import type { ReportFormat } from '../../settings/formats.ts'

/** Appends `markdown` to a job summary file, on a line of its own. */
async function appendSummary(path: string, markdown: string): Promise<void> {
  const size = await stat(path).then((info) => info.size, () => 0)
  await appendFile(path, size > 0 ? `\n${markdown}` : markdown, 'utf8')
}

/** The job summary file `report.md` is appended to: `GITHUB_STEP_SUMMARY` when it names one and Markdown is written. */
export function stepSummaryPath(env: Readonly<Record<string, string | undefined>>, formats: readonly ReportFormat[]): string | undefined {
  const path = env.GITHUB_STEP_SUMMARY
  return path !== undefined && path !== '' && formats.includes('md') ? path : undefined
}

/** The reporter that appends the Markdown of a report of `kind` to a GitHub job summary file (`GITHUB_STEP_SUMMARY`) once the report is written. */
export function stepSummaryReporter<R>(kind: ReportKind<R>, path: string): Reporter<R> {
  return {
    async onEnd(report) {
      await appendSummary(path, kind.render.md(report))
    },
  }
}
