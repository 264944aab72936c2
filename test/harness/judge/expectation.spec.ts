/**
 * Why a scenario did not meet its `expect:` block, line by line: each line a
 * function of the scenario's definition and of what the exploration found.
 * The outputs are real projections (`projectWithBytes`), laid out as an
 * exploration would group them, so every branch of the judgement is reached
 * without a sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Exploration, OutputGroup } from '../../../harness/explore/exploration.ts'
import { expectationProblems } from '../../../harness/judge/expectation.ts'
import { projectWithBytes, type InactiveEntry, type ProjectionInput } from '../../../harness/projection/projection.ts'
import type { InterleavingRecord } from '../../../harness/runners/runner.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import type { Observation } from '../../../harness/targets/target.ts'
import type { Analysis } from '../../../harness/verdict/verdict.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
})

afterAll(removeFixtureDirs)

/** The scenario `s` with entries `a` and `b` and this expect block. */
async function scenario(expectBlock: string): Promise<Scenario> {
  return loadScenario(await dir.write(`s-${Math.random().toString(36).slice(2)}.yml`, `name: s\napp: none\nplugins:\n  - { id: a, tools: [a] }\n  - { id: b, tools: [b] }\nexpect:\n${expectBlock}`))
}

/** An observation whose header carries these tool names. */
function observed(tools: string[], turnErrors: string[] = []): Observation {
  return {
    header: { tools: tools.map(name => ({ name, description: `${name} tool`, parameters: { type: 'object', properties: {} } })) },
    requests: [],
    events: [],
    live: turnErrors.map(message => ({ event: 'agent/error', message })),
  } as unknown as Observation
}

/** One distinct output: `count` interleavings, the first of which released `schedule`. */
function output(input: ProjectionInput, count: number, schedule: string[], index = 0): OutputGroup {
  const { projection, json, hash } = projectWithBytes(input)
  const first: InterleavingRecord = { index, schedule, enabledAt: schedule.map(() => 0), unreached: [], hash, outcome: projection.outcome, tools: (projection.header as { tools?: { name: string }[] } | null)?.tools?.map(tool => tool.name) ?? [], stuck: projection.stuck }
  return { hash, count, first, json }
}

function exploration(outputs: OutputGroup[]): Exploration {
  const explored = outputs.reduce((total, group) => total + group.count, 0)
  return { space: { chains: [] }, size: BigInt(explored), ran: explored, explored, outputs, firstDivergenceAt: null, guarantee: { kind: 'exhaustive' }, deviations: null, finished: true } as unknown as Exploration
}

const DETERMINISTIC: Analysis = { verdict: 'deterministic' }
const completed = (tools: string[], inactive: InactiveEntry[] = []): ProjectionInput => ({ observation: observed(tools), loadErrors: [], stuck: null, inactive })

describe('the outcome, tools, header and error of every distinct output', () => {
  it('a scenario that met its expectation has no problem', async () => {
    const s = await scenario('  outcome: completed\n  tools: [a, b]\n')
    expect(expectationProblems(s, exploration([output(completed(['a', 'b']), 2, ['a', 'b'])]), DETERMINISTIC)).toEqual([])
  })

  it('another outcome: its root cause first, then the count and the first token', async () => {
    const s = await scenario('  outcome: completed\n')
    const failed = output({ observation: observed(['a']), loadErrors: ['plugin "b" failed to apply'], stuck: null }, 2, ['b', 'a'])
    expect(expectationProblems(s, exploration([failed]), DETERMINISTIC)).toEqual([
      'first load error: "plugin \\"b\\" failed to apply" (2 of 2 interleavings, first s@canonical:b,a)',
      'expected outcome completed, got load-error (2 of 2 interleavings, first s@canonical:b,a)',
    ])
  })

  it('other tools, when the outcome is the expected one and the scenario expects determinism', async () => {
    const s = await scenario('  outcome: completed\n  tools: [a, b]\n')
    expect(expectationProblems(s, exploration([output(completed(['b', 'a']), 1, ['a', 'b'])]), DETERMINISTIC)).toEqual([
      'expected tools [a, b], got [b, a] (1 of 1 interleavings, first s@canonical:a,b)',
    ])
    expect(expectationProblems(s, exploration([output(completed(['a']), 1, ['a', 'b'])]), DETERMINISTIC)).toEqual([
      'expected tools [a, b], got [a] (1 of 1 interleavings, first s@canonical:a,b)',
    ])
    expect(expectationProblems(s, exploration([output(completed(['a', 'c']), 1, ['a', 'b'])]), DETERMINISTIC)).toEqual([
      'expected tools [a, b], got [a, c] (1 of 1 interleavings, first s@canonical:a,b)',
    ])
    // Another outcome is said once, as such, and the tools are not compared.
    const turnFailed = output({ observation: observed(['b', 'a'], ['no']), loadErrors: [], stuck: null }, 1, ['a', 'b'])
    expect(expectationProblems(s, exploration([turnFailed]), DETERMINISTIC)).toEqual([
      'first turn error: "no" (1 of 1 interleavings, first s@canonical:a,b)',
      'expected outcome completed, got turn-error (1 of 1 interleavings, first s@canonical:a,b)',
    ])
    // A scenario that expects a race states no tools order.
    const race = await scenario('  outcome: completed\n  tools: [a, b]\n  deterministic: false\n')
    expect(expectationProblems(race, exploration([output(completed(['b', 'a']), 1, ['a', 'b']), output(completed(['a', 'b']), 1, ['b', 'a'], 1)]), { verdict: 'divergent', divergence: null })).toEqual([])
  })

  it('the header, only for the expected outcome: a header that was never logged is said so', async () => {
    const s = await scenario('  outcome: completed\n  header: [a, b]\n')
    expect(expectationProblems(s, exploration([output({ observation: { ...observed([]), header: undefined } as unknown as Observation, loadErrors: [], stuck: null }, 1, ['a', 'b'])]), DETERMINISTIC)).toEqual([
      'expected a request header, but none was logged (1 of 1 interleavings, first s@canonical:a,b)',
    ])
    expect(expectationProblems(s, exploration([output(completed(['a', 'b']), 1, ['a', 'b'])]), DETERMINISTIC)).toEqual([])
  })

  it('the error substring, among the load errors, the turn errors and the crash', async () => {
    const s = await scenario('  outcome: load-error\n  error: boom\n')
    const other = output({ observation: observed([]), loadErrors: ['something else'], stuck: null }, 1, ['a', 'b'])
    expect(expectationProblems(s, exploration([other]), DETERMINISTIC)).toEqual([
      'expected an error containing "boom", got ["something else"] (1 of 1 interleavings, first s@canonical:a,b)',
    ])
    const found = output({ observation: observed([]), loadErrors: ['a boom here'], stuck: null }, 1, ['a', 'b'])
    expect(expectationProblems(s, exploration([found]), DETERMINISTIC)).toEqual([])
    const crash = await scenario('  outcome: crashed\n  error: process.exit(7)\n')
    const crashed = output({ observation: undefined, loadErrors: [], stuck: null, crash: { kind: 'exit', entry: 'b', code: 7 } }, 2, ['a', 'b'])
    expect(expectationProblems(crash, exploration([crashed]), DETERMINISTIC)).toEqual([])
    expect(expectationProblems(await scenario('  outcome: completed\n'), exploration([crashed]), DETERMINISTIC)).toEqual([
      'crash: entry b called process.exit(7) (2 of 2 interleavings, first s@canonical:a,b)',
      'expected outcome completed, got crashed (2 of 2 interleavings, first s@canonical:a,b)',
    ])
  })
})

describe('the verdict against the scenario\'s expectation', () => {
  it('error, uncontrolled and host-dependent are each one line, whatever was expected', async () => {
    const s = await scenario('  outcome: completed\n')
    const one = exploration([output(completed(['a', 'b']), 2, ['a', 'b'])])
    expect(expectationProblems(s, one, { verdict: 'error' })).toEqual(['no interleaving ran'])
    const uncontrolled: Analysis = { verdict: 'uncontrolled', uncontrolled: { token: 's@canonical:a,b', hashes: ['1'.repeat(64), '2'.repeat(64)], part: 'header', diff: '' } }
    expect(expectationProblems(s, one, uncontrolled)).toEqual([expect.stringMatching(/^the same interleaving replayed to different bytes \(s@canonical:a,b\): explored 1{64}, rerun 2{64}, differing in header; nondeterminism outside the scheduler's control, likely module-level state/)])
    const unknownPart: Analysis = { verdict: 'uncontrolled', uncontrolled: { token: 's@canonical:a,b', hashes: ['1'.repeat(64), '2'.repeat(64)], part: null, diff: '' } }
    expect(expectationProblems(s, one, unknownPart)[0]).toMatch(/rerun 2{64}; nondeterminism/)
    const host: Analysis = { verdict: 'host-dependent', hostDifference: { hosts: ['current', 'node22'], hashes: ['1'.repeat(64), '2'.repeat(64)], tokens: ['s@canonical:a,b', 's@canonical~node22:a,b'], part: 'header', diff: '' } }
    expect(expectationProblems(s, one, host)).toEqual([`the same interleaving gives different bytes on hosts current and node22, differing in header: s@canonical:a,b gives ${'1'.repeat(64)}, s@canonical~node22:a,b gives ${'2'.repeat(64)}; a host dependence (Node runtime, default locale or time zone), not an order bug`])
  })

  it('stuck: a problem unless the scenario expects it', async () => {
    const info = { reason: 'no-progress' as const, phase: 'boot' as const, waiting: ['b'] }
    const stuck = exploration([output({ observation: undefined, loadErrors: [], stuck: info }, 2, ['a', 'b'])])
    const analysis: Analysis = { verdict: 'stuck', stuck: { schedule: ['a', 'b'], stuck: info } }
    expect(expectationProblems(await scenario('  outcome: completed\n'), stuck, analysis)).toEqual([
      'interleaving s@canonical:a,b is stuck (no-progress during boot; waiting for b)',
      'expected outcome completed, got stuck (2 of 2 interleavings, first s@canonical:a,b)',
    ])
    expect(expectationProblems(await scenario('  outcome: stuck\n'), stuck, analysis)).toEqual([])
    const waitingForNothing: Analysis = { verdict: 'stuck', stuck: { schedule: ['a', 'b'], stuck: { ...info, waiting: [] } } }
    expect(expectationProblems(await scenario('  outcome: stuck\n  deterministic: true\n'), stuck, waitingForNothing)).toEqual([])
    expect(expectationProblems(await scenario('  outcome: completed\n'), stuck, waitingForNothing)[0]).toBe('interleaving s@canonical:a,b is stuck (no-progress during boot; waiting for unsettled work)')
  })

  it('divergent: a problem only where determinism was expected, said with or without the minimised pair', async () => {
    const two = exploration([output(completed(['a', 'b']), 1, ['a', 'b']), output(completed(['b', 'a']), 1, ['b', 'a'], 1)])
    const s = await scenario('  outcome: completed\n')
    expect(expectationProblems(s, two, { verdict: 'divergent', divergence: null })).toEqual(['interleavings differ (interrupted before the difference was minimised)'])
    const divergence = { part: 'header' as const, kind: 'order' as const, blame: ['a', 'b'] as [string, string], tokens: ['s@canonical:a,b', 's@canonical:b,a'] as [string, string], diff: '', firstDifference: '', moved: [], swaps: { plugins: [], changed: [] } }
    expect(expectationProblems(s, two, { verdict: 'divergent', divergence })).toEqual(['interleavings differ in header (order): swapping a and b changes the bytes'])
    expect(expectationProblems(await scenario('  outcome: completed\n  deterministic: false\n'), two, { verdict: 'divergent', divergence })).toEqual([])
  })

  it('deterministic: a problem only where a race was expected, with the guarantee that holds', async () => {
    const one = exploration([output(completed(['a', 'b']), 2, ['a', 'b'])])
    expect(expectationProblems(await scenario('  outcome: completed\n  deterministic: false\n'), one, DETERMINISTIC)).toEqual([
      'expected a race, but all 2 explored interleavings gave identical bytes (guarantee: exhaustive)',
    ])
  })
})

describe('expect.inactive', () => {
  it('a listed entry that was active in every interleaving, and an unlisted one never active', async () => {
    const waiting: InactiveEntry = { id: 'b', reason: 'waiting', waiting: ['index'] }
    const outputs = exploration([output(completed(['a'], [waiting]), 2, ['a', 'b'])])
    expect(expectationProblems(await scenario('  outcome: completed\n'), outputs, DETERMINISTIC)).toEqual([
      'entry b (waiting for service: index) never became active (2 of 2 interleavings, first s@canonical:a,b); list it under expect.inactive if that is intended',
    ])
    expect(expectationProblems(await scenario('  outcome: completed\n  inactive: [b]\n'), outputs, DETERMINISTIC)).toEqual([])
    expect(expectationProblems(await scenario('  outcome: completed\n  inactive: [a, b]\n'), outputs, DETERMINISTIC)).toEqual([
      'expected entry a to stay inactive, but it became active (2 of 2 interleavings, first s@canonical:a,b)',
    ])
  })

  it('says nothing about activity when no interleaving booted', async () => {
    const info = { reason: 'timeout' as const, phase: 'boot' as const, waiting: ['b'] }
    const stuck = exploration([output({ observation: undefined, loadErrors: [], stuck: info }, 1, ['a', 'b'])])
    expect(expectationProblems(await scenario('  outcome: stuck\n  inactive: [b]\n'), stuck, { verdict: 'stuck', stuck: { schedule: ['a', 'b'], stuck: info } })).toEqual([])
  })
})
