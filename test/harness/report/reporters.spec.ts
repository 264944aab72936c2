import { describe, expect, it } from 'vitest'
import { reporterNames, type ReporterSetup } from '../../../harness/report/reporters/index.ts'
import { PLAIN } from '../../../harness/report/style.ts'

const sink = { write: () => true }

function setup(overrides: Partial<ReporterSetup>): ReporterSetup {
  return { stdout: sink, stderr: sink, env: {}, style: PLAIN, reporter: 'default', showOutput: false, dir: 'out', formats: ['json', 'md', 'junit', 'html'], ...overrides }
}

describe('the reporters a run has', () => {
  it('are the report files in the order asked, then the terminal lines', () => {
    expect(reporterNames(setup({ formats: ['md', 'json', 'md'] }))).toEqual(['md', 'json', 'terminal'])
  })

  it('add the job summary when GITHUB_STEP_SUMMARY names a file and Markdown is written, annotations under GitHub Actions, report.json on stdout under --reporter json', () => {
    const env = { GITHUB_STEP_SUMMARY: 'summary.md', GITHUB_ACTIONS: 'true' }
    expect(reporterNames(setup({ env, reporter: 'json', formats: ['md'] }))).toEqual(['md', 'step-summary', 'terminal', 'github-annotations', 'json-stdout'])
    expect(reporterNames(setup({ env, formats: ['json'] }))).toEqual(['json', 'terminal', 'github-annotations'])
    expect(reporterNames(setup({ env: { GITHUB_STEP_SUMMARY: '', GITHUB_ACTIONS: 'false' }, formats: ['md'] }))).toEqual(['md', 'terminal'])
  })
})
