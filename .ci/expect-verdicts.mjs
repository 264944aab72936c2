// Checks the report.json of a `loadrace test` run against the verdicts
// expected of each test, read from a JSON file:
//   { "default": "holds", "tests": { "<the suite's full test name>": "pins-one", ... } }
// Every test of the report must have its expected verdict (the default when
// not named), and every named test must be in the report.
//   node .ci/expect-verdicts.mjs REPORT_JSON EXPECTED_JSON
import { readFileSync } from 'node:fs'

const [reportFile, expectedFile] = process.argv.slice(2)
const report = JSON.parse(readFileSync(reportFile, 'utf8'))
const expected = JSON.parse(readFileSync(expectedFile, 'utf8'))
const problems = []
for (const test of report.tests) {
  const want = expected.tests[test.name] ?? expected.default
  if (test.verdict !== want) problems.push(`${test.file} › ${test.name}: ${test.verdict}, expected ${want}`)
}
for (const name of Object.keys(expected.tests)) {
  if (!report.tests.some(test => test.name === name)) problems.push(`${name}: not in the report`)
}
if (problems.length > 0) {
  console.error(`loadrace test gave verdicts other than expected (${reportFile}):\n${problems.map(line => `  ${line}`).join('\n')}`)
  process.exit(1)
}
const counts = {}
for (const test of report.tests) counts[test.verdict] = (counts[test.verdict] ?? 0) + 1
console.log(`every test has its expected verdict: ${Object.entries(counts).map(([verdict, count]) => `${count} ${verdict}`).join(', ')} (${reportFile})`)
