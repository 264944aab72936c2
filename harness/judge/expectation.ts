import type { ExpectedTool, Scenario } from '../scenario/scenario.ts'
import { type Projection, parseProjection } from '../projection/projection.ts'
import { formatGuarantee } from '../strategies/index.ts'
import type { HarnessFault, OrderOnlyReruns, UncontrolledReplay } from '../verdict/verdict.ts'
import { describeCrash } from '../verdict/outcome.ts'
import { describeInactive } from '../runtime/inactive.ts'
import type { Analysis } from '../verdict/verdict.ts'
import { tokenOf } from '../token.ts'
import { UNCONTROLLED_CAUSES } from './analyse.ts'
import { causeLine, followOnErrors, rootCause } from './root-cause.ts'
import type { Exploration } from '../explore/exploration.ts'
import { replayableSchedule, type InterleavingRecord } from '../runners/runner.ts'
import { inactivityOf } from './inactivity.ts'

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}

/** The header's tools as the projection holds them. */
type HeaderTool = { name?: unknown, description?: unknown, parameters?: unknown }

/** What the header fails of `expect.header`, in a line; undefined when it carries exactly the expected tools. */
export function headerProblem(expected: readonly ExpectedTool[], header: unknown): string | undefined {
  if (header === null || header === undefined) return 'expected a request header, but none was logged'
  const tools = ((header as { tools?: HeaderTool[] }).tools ?? [])
  const names = (list: readonly { name?: unknown }[]) => `[${list.map(tool => String(tool.name)).join(', ')}]`
  if (tools.length !== expected.length) {
    return `expected a header of ${expected.length} tools ${names(expected)}, got ${tools.length} ${names(tools)}`
  }
  for (const [index, want] of expected.entries()) {
    const got = tools[index]!
    const which = `header tool ${index + 1}`
    if (got.name !== want.name) return `${which}: expected ${JSON.stringify(want.name)}, got ${JSON.stringify(got.name)} (header ${names(tools)})`
    if (want.description !== undefined && got.description !== want.description) {
      return `${which} (${want.name}): expected description ${JSON.stringify(want.description)}, got ${JSON.stringify(got.description)}`
    }
    if (want.parameters !== undefined && JSON.stringify(got.parameters) !== JSON.stringify(want.parameters)) {
      return `${which} (${want.name}): expected parameters ${JSON.stringify(want.parameters)}, got ${JSON.stringify(got.parameters)} (key order included)`
    }
  }
  return undefined
}

/** The error texts of an output, for `expect.error`: load errors, turn errors, and the crash. */
function errorTexts(projection: Projection): string[] {
  return [...projection.errors.load, ...projection.errors.turn, ...projection.crash === undefined ? [] : [describeCrash(projection.crash)]]
}

/** The problem line of an uncontrolled verdict: the interleaving, both hashes, the part that moved, and the likely causes. */
export function uncontrolledProblem(replay: UncontrolledReplay): string {
  const [explored, rerun] = replay.hashes
  const where = replay.part === null ? '' : `, differing in ${replay.part}`
  const ended = replay.endings === undefined ? '' : ` (the explored run ended ${replay.endings[0]}; the rerun ${replay.endings[1]})`
  const evidence = replay.orderOnly === undefined ? '' : `\n${orderOnlyEvidence(replay.orderOnly)}`
  return `the same interleaving replayed to different bytes (${replay.token}): explored ${explored}, rerun ${rerun}${where}${ended}; `
    + `nondeterminism outside the scheduler's control, ${UNCONTROLLED_CAUSES}${evidence}`
}

/** The evidence line of an uncontrolled verdict: what the reruns with loadrace's control of timers and clocks off showed. */
export function orderOnlyEvidence(reruns: OrderOnlyReruns): string {
  const runs = `${reruns.hashes.length} reruns with loadrace's control of timers and clocks off (import order still held)`
  if (reruns.timedOut === true) return `evidence: of ${runs}, one ran into the timeout: no evidence either way`
  if (reruns.agree && reruns.controlledAfter !== undefined) {
    return `evidence: ${runs} agree (${reruns.hashes[0]}), and a controlled run after them gives the same bytes: `
      + 'the system\'s bytes changed from one run to the next and then held (state carried between runs in one process, or a rare event outside the load order), no sign of loadrace\'s doing'
  }
  return `evidence: ${runs} varied too (${reruns.hashes.join(', ')}): the system varies either way, not by loadrace's doing`
}

/** The problem line of a harness fault: loadrace's failure, what it failed to hold, both sides' hashes, the part. */
export function harnessFaultProblem(fault: HarnessFault): string {
  const where = fault.part === null ? '' : `, differing in ${fault.part}`
  return `loadrace failed to hold ${fault.resource} (a harness fault, not a verdict about the system): `
    + `the controlled runs of ${fault.token} gave ${fault.controlled[0]} and ${fault.controlled[1]}, while ${fault.orderOnly.hashes.length} runs `
    + `with loadrace's control of timers and clocks off (import order still held) all gave ${fault.orderOnly.hashes[0]}, `
    + `and a controlled run right after them gave ${fault.orderOnly.controlledAfter ?? 'other bytes'}${where}`
    + (fault.endings === undefined ? '' : ` (the controlled run ended ${fault.endings[0]}; the order-only runs ${fault.endings[1]})`)
}

/**
 * What `expect.inactive` is checked against: an entry inactive in every
 * interleaving that booted never became active, and fails the scenario
 * unless listed; a listed entry must be inactive in every one of them. An
 * entry inactive in some interleavings only is part of the divergence (its
 * counts are reported there), not an unmet expectation.
 */
function inactiveProblems(scenario: Scenario, exploration: Exploration): string[] {
  const inactivity = inactivityOf(exploration)
  const expected = scenario.expect.inactive
  const token = (record: InterleavingRecord) => tokenOf(scenario, replayableSchedule(record))
  const where = (count: number, record: InterleavingRecord) => `${count} of ${inactivity.counted} interleavings, first ${token(record)}`
  const problems: string[] = []
  for (const known of inactivity.entries.values()) {
    // A disabled entry is the configuration's choice (a snapshot configuration disables the live model adapter), never a failure to activate, as in dsh's own boot.
    if (known.inactive < inactivity.counted || expected.includes(known.entry.id) || known.entry.reason === 'disabled') continue
    problems.push(`entry ${describeInactive(known.entry)} never became active (${where(known.inactive, known.firstInactive)}); list it under expect.inactive if that is intended`)
  }
  for (const id of expected) {
    const known = inactivity.entries.get(id)
    if (inactivity.first === undefined || (known !== undefined && known.inactive === inactivity.counted)) continue
    if (known === undefined) {
      problems.push(`expected entry ${id} to stay inactive, but it became active (${where(inactivity.counted, inactivity.first)})`)
    } else {
      problems.push(`expected entry ${id} to stay inactive in every interleaving, but it became active in ${inactivity.counted - known.inactive} of ${inactivity.counted} (first ${token(known.firstActive!)}); `
        + 'an entry inactive in some interleavings only is part of the divergence: remove it from expect.inactive')
    }
  }
  return problems
}

/**
 * Why a scenario did not meet its `expect:` block, one line per reason; empty
 * when it did. In a shard (`options.shard`) a race not found is not a
 * problem: the merge of all shards judges it. When a failing output logged errors, the root cause comes
 * first (its first error in boot order, at the config field it names), and
 * the errors that followed from it are said after it.
 */
export function expectationProblems(scenario: Scenario, exploration: Exploration, analysis: Analysis, options: { shard?: boolean } = {}): string[] {
  const expect = scenario.expect
  const problems: string[] = []
  const explored = exploration.explored
  switch (analysis.verdict) {
    case 'error':
      return ['no interleaving ran']
    case 'uncontrolled':
      return [uncontrolledProblem(analysis.uncontrolled)]
    case 'harness-fault':
      return [harnessFaultProblem(analysis.harnessFault)]
    case 'host-dependent': {
      const { hosts, hashes, tokens, part } = analysis.hostDifference
      return [`the same interleaving gives different bytes on hosts ${hosts[0]} and ${hosts[1]}, differing in ${part}: ${tokens[0]} gives ${hashes[0]}, ${tokens[1]} gives ${hashes[1]}; a host dependence (Node runtime, default locale or time zone), not an order bug`]
    }
    case 'stuck': {
      const info = analysis.stuck.stuck
      if (expect.outcome !== 'stuck') {
        problems.push(`interleaving ${tokenOf(scenario, analysis.stuck.schedule)} is stuck (${info.reason} during ${info.phase}; waiting for ${info.waiting.join(', ') || 'unsettled work'})`)
      }
      break
    }
    case 'divergent': {
      const d = analysis.divergence
      if (expect.deterministic) {
        // Without a divergence the sweep was cut short before the difference was minimised.
        problems.push(d === null
          ? 'interleavings differ (interrupted before the difference was minimised)'
          : `interleavings differ in ${d.part} (${d.kind}): swapping ${d.blame[0]} and ${d.blame[1]} changes the bytes`)
      }
      break
    }
    case 'deterministic':
      // One shard may hold one side of a race only: whether it is found is for the merge of all shards to say.
      if (!expect.deterministic && options.shard !== true) {
        problems.push(`expected a race, but all ${explored} explored interleavings gave identical bytes (guarantee: ${formatGuarantee(exploration.guarantee)})`)
      }
      break
  }
  const causes: string[] = []
  for (const group of exploration.outputs) {
    const record = group.first
    const projection = parseProjection(group.json)
    const where = `${group.count} of ${explored} interleavings, first ${tokenOf(scenario, replayableSchedule(record))}`
    const cause = rootCause(scenario, projection)
    if (record.outcome !== expect.outcome) {
      const after = followOnErrors(projection, cause)
      problems.push(`expected outcome ${expect.outcome}, got ${record.outcome} (${where})${after.length === 0 ? '' : `; after it: ${after.join('; ')}`}`)
    }
    if (expect.deterministic && expect.tools && record.outcome === expect.outcome && !sameList(record.tools, expect.tools)) {
      problems.push(`expected tools [${expect.tools.join(', ')}], got [${record.tools.join(', ')}] (${where})`)
    }
    const header = expect.header !== undefined && record.outcome === expect.outcome ? headerProblem(expect.header, projection.header) : undefined
    if (header !== undefined) problems.push(`${header} (${where})`)
    if (expect.error !== undefined && record.outcome === expect.outcome && !errorTexts(projection).some(text => text.includes(expect.error!))) {
      problems.push(`expected an error containing ${JSON.stringify(expect.error)}, got ${JSON.stringify(errorTexts(projection))} (${where})`)
    }
    const said = cause === undefined ? undefined : causeLine(cause)
    // The root cause explains an unexpected outcome; an expected one whose details differ says them itself.
    if (said !== undefined && record.outcome !== expect.outcome && !causes.some(line => line.startsWith(`${said} (`))) causes.push(`${said} (${where})`)
  }
  problems.push(...inactiveProblems(scenario, exploration))
  return [...causes, ...problems]
}
