import { escapeXmlAttribute as attr, escapeXmlText as xmlText } from './escape.ts'
import {
  goldenWithheldSentence,
  printedHeading,
  printedLines,
  printedOmission,
  partlyInactiveSentence,
  INCOMPLETE_NOTICE,
  VERDICT_MEANING,
  blameSentence,
  expectation,
  optionsLine,
  replayCommand,
  replayTargets,
  resultOf,
  scenarioFacts,
  shardNotice,
  shortHash,
  totalsOf,
} from './present.ts'
import type { Report } from './sweep-report.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'

/**
 * `junit.xml` for CI test views: one `<testsuite name="loadrace">`, one
 * `<testcase>` per scenario, replay tokens as properties and the full
 * explanation of a failure in its body.
 */

function seconds(ms: number): string {
  return (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3)
}

function element(name: string, attributes: Readonly<Record<string, string>>): string {
  const rendered = Object.entries(attributes).map(([key, value]) => ` ${key}="${attr(value)}"`).join('')
  return `<${name}${rendered}`
}

function properties(indent: string, entries: readonly (readonly [string, string])[]): string[] {
  return [
    `${indent}<properties>`,
    ...entries.map(([name, value]) => `${indent}  ${element('property', { name, value })}/>`),
    `${indent}</properties>`,
  ]
}

/** Every replay token of a scenario, each with a property name saying which interleaving it is. */
function tokenProperties(scenario: ScenarioReport): [string, string][] {
  const entries: [string, string][] = []
  if (scenario.divergence !== null) {
    entries.push(['replay.before-swap', scenario.divergence.tokens[0]], ['replay.after-swap', scenario.divergence.tokens[1]])
  }
  scenario.outputs.forEach((output, index) => entries.push([`replay.output-${index + 1}`, output.token]))
  return entries
}

/** The body of a `<failure>`: everything needed to understand and replay it, as plain text. */
function failureBody(scenario: ScenarioReport): string {
  const lines = [
    scenarioFacts(scenario).join(' · '),
    `Verdict ${scenario.verdict}: ${VERDICT_MEANING[scenario.verdict]}.`,
    `Outcome ${scenario.outcome}; expected ${expectation(scenario)}.`,
  ]
  if (scenario.problems.length > 0) lines.push('', 'Problems:', ...scenario.problems.map((problem) => `  - ${problem}`))
  const divergence = scenario.divergence
  if (divergence !== null) {
    lines.push('', `Blame: ${divergence.blame[0]} <-> ${divergence.blame[1]}. ${blameSentence(divergence)}`)
    lines.push(`Part: ${divergence.part}; kind: ${divergence.kind}.`)
    const partly = partlyInactiveSentence(divergence)
    if (partly !== undefined) lines.push(partly)
  }
  const targets = replayTargets(scenario)
  if (targets.length > 0) {
    lines.push('', 'Replay:', ...targets.flatMap(({ label, token }) => [`  ${label}:`, `    ${replayCommand(token, scenario.file)}`]))
  }
  if (divergence !== null) {
    lines.push('', `Diff of the ${divergence.part} (before -> after the swap):`, divergence.diff.replace(/\n$/, ''))
  }
  const rerun = scenario.uncontrolled
  if (rerun !== undefined && rerun.part !== null) {
    lines.push('', `Rerun diff of the ${rerun.part} of ${rerun.token} (explored -> rerun):`, rerun.diff.replace(/\n$/, ''))
  }
  const fault = scenario.harnessFault
  if (fault !== undefined && fault.part !== null) {
    lines.push('', `Harness fault diff of the ${fault.part} of ${fault.token} (controlled -> order-only):`, fault.diff.replace(/\n$/, ''))
  }
  if (scenario.outputs.length > 0) {
    lines.push('', 'Outputs:')
    for (const output of scenario.outputs) {
      lines.push(`  ${shortHash(output.hash)} × ${output.count}: ${output.tools.join(', ') || '(no header)'}`, `    token ${output.token}`)
    }
  }
  if (scenario.goldenDiff !== undefined) {
    lines.push('', 'Golden diff (golden -> this run):', scenario.goldenDiff.replace(/\n$/, ''))
  }
  const withheld = goldenWithheldSentence(scenario)
  if (withheld !== undefined) lines.push('', withheld)
  return `${lines.join('\n')}\n`
}

function testcase(scenario: ScenarioReport): string[] {
  const open = element('testcase', {
    classname: `loadrace.${scenario.target}.${scenario.variant}`,
    name: scenario.name,
    file: scenario.file,
    time: seconds(scenario.durationMs),
  })
  const result = resultOf(scenario)
  const lines = [
    `    ${open}>`,
    ...properties('      ', [
      ['verdict', scenario.verdict],
      ['guarantee', scenario.guarantee],
      ['explored', String(scenario.explored)],
      ['planned', String(scenario.planned)],
      ['space', scenario.space],
      ...tokenProperties(scenario),
    ]),
  ]
  if (result === 'skipped') {
    lines.push(`      ${element('skipped', { message: scenario.skipped ?? '' })}/>`)
  } else if (result === 'failed') {
    const message = scenario.problems.length > 0 ? scenario.problems.join('; ') : `verdict ${scenario.verdict}`
    lines.push(`      ${element('failure', { message, type: scenario.verdict })}>${xmlText(failureBody(scenario))}</failure>`)
  }
  const printed = (scenario.systemOutput ?? []).flatMap(output => [printedHeading(output), ...printedLines(output), ...[printedOmission(output) ?? []].flat()])
  if (printed.length > 0) lines.push(`      <system-out>${xmlText(`${printed.join('\n')}\n`)}</system-out>`)
  lines.push('    </testcase>')
  return lines
}

/** The report as JUnit XML (UTF-8, XML 1.0). */
export function renderJunit(report: Report): string {
  const totals = totalsOf(report)
  const counts = {
    tests: String(totals.scenarios),
    failures: String(totals.failed),
    errors: '0',
    skipped: String(totals.skipped),
    time: seconds(totals.durationMs),
  }
  const suiteProperties: [string, string][] = [
    ['version', report.version],
    ['complete', String(report.complete)],
    ['strategy', report.options.strategy],
    ['seed', report.options.seed],
    ['budget', String(report.options.budget)],
    ['shard', report.options.shard ?? ''],
    ['workers', String(report.options.workers)],
    ['interleavings', String(totals.interleavings)],
  ]
  const notices = [report.complete ? undefined : INCOMPLETE_NOTICE, shardNotice(report)].filter((n) => n !== undefined)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `${element('testsuites', { name: 'loadrace', ...counts })}>`,
    `  ${element('testsuite', { name: 'loadrace', ...counts })}>`,
    ...properties('    ', suiteProperties),
    ...report.scenarios.flatMap(testcase),
  ]
  if (notices.length > 0) {
    lines.push(`    <system-err>${xmlText(`${[...notices, optionsLine(report)].join('\n')}\n`)}</system-err>`)
  }
  lines.push('  </testsuite>', '</testsuites>')
  return `${lines.join('\n')}\n`
}
