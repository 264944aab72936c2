// Checks the report.json of a `loadrace test` run against the verdicts
// expected of each test, read from a JSON file:
//   { "default": "holds", "tests": { "<the suite's full test name>": "pins-one", ... },
//     "blame": { "<test name>": ["<plugin>", "<plugin>"] }, "reach": "every-boot" }
// Every test of the report must have its expected verdict (the default when
// not named), and every named test must be in the report; a test named under
// "blame" must be blamed on those two plugins (either order); with "reach":
// "every-boot", the runs of the plan booted a loader and every boot followed
// its row.
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
for (const [name, plugins] of Object.entries(expected.blame ?? {})) {
  const blamed = report.tests.find(test => test.name === name)?.pinsOne?.blame?.plugins ?? []
  if ([...blamed].sort().join(' ↔ ') !== [...plugins].sort().join(' ↔ ')) problems.push(`${name}: blamed on ${blamed.join(' ↔ ') || 'no plugins'}, expected ${plugins.join(' ↔ ')}`)
}
if (expected.reach === 'every-boot') {
  const reach = report.reach
  if (reach === undefined || reach.boots === 0 || reach.controlled !== reach.boots) problems.push(`reach: ${reach === undefined ? 'none stated' : `${reach.controlled} of ${reach.boots} boots followed a row`}, expected every boot (and at least one)`)
}
if (problems.length > 0) {
  console.error(`loadrace test gave verdicts other than expected (${reportFile}):\n${problems.map(line => `  ${line}`).join('\n')}`)
  process.exit(1)
}
const counts = {}
for (const test of report.tests) counts[test.verdict] = (counts[test.verdict] ?? 0) + 1
console.log(`every test has its expected verdict: ${Object.entries(counts).map(([verdict, count]) => `${count} ${verdict}`).join(', ')} (${reportFile})`)
