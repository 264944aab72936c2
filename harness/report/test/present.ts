import { formatOrder } from '../../settings/orders.ts'
import { TEST_VERDICTS, type TestFinding, type TestVerdict } from '../../verdict/test-verdict.ts'
import type { ConfigurationEntry, TestReach, TestReport } from '../test-report.ts'

/**
 * What every format of a `loadrace test` report says the same way: a test's
 * title, the lines under a finding, a plan's rows, how the run ended. The
 * renderers only decide layout and escaping.
 */

/** `file › name`, or the name alone when the results name no file. */
export function testTitle(test: { file: string, name: string }): string {
  return test.file === '' ? test.name : `${test.file} › ${test.name}`
}

/** Which of a plan's rows were the natural run's own orders, or nothing when none counted. */
function naturalRows(plan: Pick<ConfigurationEntry, 'fromNatural' | 'naturalOrders'>): string {
  if (!plan.fromNatural) return ''
  return plan.naturalOrders === 1 ? ' (the first: the natural run\'s order)' : ` (the first ${plan.naturalOrders}: the natural run's orders)`
}

/** A plan's row count, saying how many of its rows were the natural run's own orders. */
export function rowsText(plan: Pick<ConfigurationEntry, 'rows' | 'fromNatural' | 'naturalOrders'>): string {
  return `${plan.rows}${naturalRows(plan)}`
}

/** `3 rows (the first: the natural run's order)`. */
export function rowsPhrase(plan: Pick<ConfigurationEntry, 'rows' | 'fromNatural' | 'naturalOrders'>): string {
  return `${plan.rows} row${plan.rows === 1 ? '' : 's'}${naturalRows(plan)}`
}

/** A verdict as shown: `holds`, or `holds (partial)` when the interrupted run could still change it. */
export function verdictText(test: Pick<TestFinding, 'verdict' | 'partial'>): string {
  return test.partial === undefined ? test.verdict : `${test.verdict} (partial)`
}

/** The lines said under a test in the terminal and in every document: what flipped it, and how to replay it. */
export function findingLines(test: TestFinding): string[] {
  const lines: string[] = []
  if (test.partial !== undefined) lines.push(`partial: ${test.partial}`)
  const pinned = test.pinsOne
  if (pinned !== undefined) {
    if (pinned.naturalOrderFails) lines.push('this machine\'s natural load order (the natural run) is the failing side')
    if (pinned.blame?.plugins !== undefined) {
      const [first, second] = pinned.blame.plugins
      const [x, y] = pinned.blame.entries
      const classes = pinned.blame.classes
      const together = classes === undefined ? '' : classes.map(members => members.length > 1 ? `${members.length} plugins apply together with ${members.find(member => member === first || member === second) ?? members[0]}` : '').filter(Boolean).join('; ')
      const sure = {
        isolated: `bisected from the ${pinned.blame.flipped} plugin pairs the two sides applied in opposite orders`,
        class: `bisected from ${pinned.blame.flipped} pairs; ${together}, which no load order moves apart: named by the failure's text`,
        unconfirmed: `the likeliest of the ${pinned.blame.flipped} plugin pairs the two sides applied in opposite orders; the bisection could not split them`,
      }[pinned.blame.how ?? 'unconfirmed']
      const how = pinned.blame.after === undefined ? sure : `as for ${pinned.blame.after}, whose swap flips this test too: ${sure} there`
      lines.push(`blame: ${first} ↔ ${second} in ${pinned.blame.configuration} (passes with ${first} applying first, fails with ${second} first; ${how}; ${pinned.blame.runs} runs alone)`)
      lines.push(`their applies swap when the loader entries ${x} ↔ ${y} swap (passes with ${x} first)`)
    } else if (pinned.blame) {
      const [first, second] = pinned.blame.entries
      lines.push(`blame: ${first} ↔ ${second} in ${pinned.blame.configuration} (passes with ${first} first, fails with ${second} first; ${pinned.blame.runs} runs alone)`)
    } else if (pinned.unblamed) {
      lines.push(`no pair blamed: ${pinned.unblamed}`)
    }
    lines.push(`passes in ${pinned.passing.run}, fails in ${pinned.failing.run}`)
  }
  if (test.flaky) {
    lines.push(test.flaky.order === 'other'
      ? `in ${test.flaky.run} it ${test.flaky.first}; rerun alone it ${test.flaky.rerun}, under another load order (the run's own could not be realised again)`
      : `in ${test.flaky.run} it ${test.flaky.first}; rerun alone under the load order that run realised it ${test.flaky.rerun}`)
  }
  if (test.replay) lines.push(`replay: ${test.replay}`)
  return lines
}

/** The tests that are findings or not final, in report order: what the documents detail. */
export function detailedTests(report: TestReport): TestFinding[] {
  return report.tests.filter(test => (test.verdict !== 'holds' && test.verdict !== 'skipped') || test.partial !== undefined)
}

/** `3 hold, 2 pins-one, …`: the counts of a summary, in report order. */
export function verdictCounts(summary: Readonly<Record<TestVerdict, number>>): string {
  const words: Readonly<Record<TestVerdict, string>> = { 'holds': 'hold', 'pins-one': 'pins-one', 'fails': 'fail', 'flaky': 'flaky', 'skipped': 'skipped' }
  return TEST_VERDICTS.map(verdict => `${summary[verdict]} ${words[verdict]}`).join(', ')
}

/** The headline of a report: how the run ended, in one line (the documents' opening, the terminal's closing). */
export function testHeadline(report: TestReport): string {
  const s = report.summary
  const counted = `${s.tests} tests: ${verdictCounts(s)} · ${s.runs} runs of the command, ${s.reruns} reruns alone, ${(s.durationMs / 1000).toFixed(0)} s`
  if (report.unjudged !== undefined) return `nothing judged: ${report.unjudged}`
  if (report.replay !== undefined) return `replay: ${Object.entries(report.replay.orders).map(([configuration, order]) => formatOrder(configuration, order)).join(' ')}${report.replay.only === null ? '' : ` (only ${report.replay.only})`}: ${counted}`
  if (report.interrupted !== undefined) return `INCOMPLETE (interrupted during ${report.interrupted.during}${neverRan(report)}): ${counted}`
  return counted
}

/** `; schedule-3, schedule-4 never ran`, or nothing. */
function neverRan(report: TestReport): string {
  const never = report.interrupted?.neverRan ?? []
  return never.length === 0 ? '' : `; ${never.join(', ')} never ran`
}

/** How far a plan over applies reached, in one phrase: `ties 504/523 reversed, orders 4784/5259 shown; every order takes 3 rows`. */
export function reachText(plan: Pick<ConfigurationEntry, 'reach'>): string | undefined {
  const reach = plan.reach
  if (reach === undefined) return undefined
  const needed = reach.rowsNeeded === undefined ? '' : `; every order would take ${reach.rowsNeeded} row${reach.rowsNeeded === 1 ? '' : 's'} after the natural run`
  return `ties ${reach.ties.reversed}/${reach.ties.reversible} reversed, orders ${reach.orders.shown}/${reach.orders.owed} shown${needed}`
}

/** One line for people: the boots controlled, in how many tests, and what was not reached. */
export function bootReachText(reach: TestReach): string {
  const parts = [`${reach.controlled} of ${reach.boots} loader boots in the plan's runs followed a row, in ${reach.tests} test${reach.tests === 1 ? '' : 's'}`]
  for (const { why, boots } of reach.uncontrolled) parts.push(`${boots} not: ${why}`)
  if (reach.ambiguous !== undefined) parts.push(`${reach.ambiguous} booted by tests running concurrently (followed their rows; which test booted which cannot be told)`)
  const missed = (reach.projects ?? []).filter(project => !project.reached)
  if (reach.projects !== undefined) parts.push(`vitest projects reached: ${reach.projects.length - missed.length} of ${reach.projects.length}${missed.map(project => `; not ${project.project}: ${project.why}`).join('')}`)
  return parts.join('; ')
}
