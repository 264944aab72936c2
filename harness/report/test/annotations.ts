import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { commandData, commandProperty } from '../reporters/github-annotations.ts'
import type { Reporter, Sink } from '../reporter.ts'
import type { TestReport } from '../test-report.ts'
import { isFinding, type TestFinding } from '../../verdict/test-verdict.ts'
import { findingLines } from './present.ts'

/**
 * The `::error file=…,title=…::…` line that makes GitHub annotate a finding's
 * test file (when the results name a file that exists in `cwd`; else the run
 * itself): its verdict, what flipped it, the replay and the suite's message.
 */
export function testAnnotation(test: TestFinding, cwd: string): string {
  const title = `loadrace: ${test.name} is ${test.verdict}${test.partial === undefined ? '' : ' (partial)'}`
  const message = [...findingLines(test), ...test.message === undefined ? [] : [test.message]].join('\n') || `verdict ${test.verdict}`
  const located = test.file !== '' && existsSync(join(cwd, test.file))
  const properties = [...located ? [`file=${commandProperty(test.file)}`] : [], `title=${commandProperty(title)}`]
  return `::error ${properties.join(',')}::${commandData(message)}\n`
}

/** The reporter that prints a GitHub `::error` annotation on `out` for each finding of a test run, once it is judged whole. */
export function testAnnotationsReporter(out: Sink): Reporter<TestReport> {
  return {
    onEnd(report) {
      for (const test of report.tests) if (isFinding(test.verdict)) out.write(testAnnotation(test, report.cwd))
    },
  }
}
