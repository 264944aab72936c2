import { commandData, commandProperty } from '../reporters/github-annotations.ts'
import type { Reporter, Sink } from '../reporter.ts'
import type { TestReport } from '../test-report.ts'
import { isFinding, type TestFinding } from '../../verdict/test-verdict.ts'
import { findingLines } from './present.ts'

/** The `::error file=…,title=…::…` line that makes GitHub annotate a finding's test file: its verdict, what flipped it, the replay and the suite's message. */
export function testAnnotation(test: TestFinding): string {
  const title = `loadrace: ${test.name} is ${test.verdict}${test.partial === undefined ? '' : ' (partial)'}`
  const message = [...findingLines(test), ...test.message === undefined ? [] : [test.message]].join('\n') || `verdict ${test.verdict}`
  const properties = [...test.file === '' ? [] : [`file=${commandProperty(test.file)}`], `title=${commandProperty(title)}`]
  return `::error ${properties.join(',')}::${commandData(message)}\n`
}

/** The reporter that prints a GitHub `::error` annotation on `out` for each finding of a test run, as soon as it is judged. */
export function testAnnotationsReporter(out: Sink): Reporter<TestReport> {
  return {
    onTestJudged(finding) {
      if (isFinding(finding.verdict)) out.write(testAnnotation(finding))
    },
  }
}
