import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { BootRecord } from '../../../harness/preload/protocol.js'
import { applyStructure, entryRequirements, predictedApplies, type ApplyStructure } from '../../../harness/space/applies.ts'
import type { CommandRun } from '../../../harness/suite/command-run.ts'
import { failureScorer, swappedStretch } from '../../../harness/suite/failure-names.ts'
import { narrow } from '../../../harness/suite/blame.ts'
import { ordersKey } from '../../../harness/suite/realised.ts'
import { isolateRace, raceCandidates } from '../../../harness/suite/plugin-blame.ts'
import { realisable } from '../../../harness/space/apply-rows.ts'
import type { Rerun, RunsAlone } from '../../../harness/suite/rerunner.ts'
import type { TestResult } from '../../../harness/suite/results.ts'

/**
 * Blame names the two plugins whose applies decide a pinned test, from runs
 * alone and the failure's own text. Here the test is dsh's: its two section
 * ties, over the apply structure natural runs recorded on this machine
 * (test/fixtures/dsh-ties). Whether a run passes is written from dsh's pins
 * (its README's table, the expected prompts): `tool:pty` (tool-terminal)
 * before `tool:jobs` (tool-jobs, mounted by the spine), `tool:workflow`
 * before `tool:cordis`. A run applies the plugins as the recorded structure
 * has them apply under its load order; the real end-to-end run is in
 * fixture-suite.spec.ts and was checked on dsh (docs/dsh.md).
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const PTY = 'examples/acp-agent/pty.cordis.snapshot.yml'
const ADVANCED = 'examples/acp-agent/advanced.cordis.snapshot.yml'
const TERMINAL = 'base.tool-terminal'
const JOBS = 'base.acp-agent › agent-spine-demo › tool-jobs'

type Recorded = Pick<BootRecord, 'requested' | 'released' | 'applies'>
const naturalRuns = (JSON.parse(readFileSync(`${ROOT}/test/fixtures/dsh-ties/natural-runs.json`, 'utf8')) as { natural: Record<string, Recorded>[] }).natural
const natural = naturalRuns[0]!

/** The tail of the diff vitest printed when the pty pin broke (dsh's own failure, shortened). */
const PTY_FAILURE = [
  'AssertionError: session 14d8: initial system prompt #1 diverged from pty-tools/system-prompt.expected.md: expected \'You are an AI agent powered by DeepSe…\'',
  '- Expected', '+ Received', '',
  '  Check the [exit code: N] marker on every bash result; investigate failures before moving on.', '',
  '- Use a terminal session only when work needs persistent terminal state or interactive stdin.',
  '-',
  '  Track every background job id you start. Before giving a final answer, collect every still-relevant job with job_output, and job_kill jobs that stopped mattering.', '',
  '+ Use a terminal session only when work needs persistent terminal state or interactive stdin.',
  '+',
  '  Use goal tools for one long-running completion objective in the current session.',
  ' ❯ packages/test-support/acp-snapshot/src/suite.ts:1418:18',
].join('\n')

function structureOf(configuration: string, runs = natural): { record: Recorded, structure: ApplyStructure } {
  const record = runs[configuration]!
  return { record, structure: applyStructure({ released: record.released, applies: record.applies! }, new Set(record.released), entryRequirements([record])) }
}

/** A run of `configuration` under `order`: the applies the structure gives, and the test's status by `passes`. */
function runOf(configuration: string, structure: ApplyStructure, record: Recorded, order: readonly string[], passes: (applied: readonly string[]) => boolean): Rerun {
  const applied = predictedApplies(structure, order).map(index => structure.units[index]!.unit)
  const byUnit = new Map(record.applies!.map(apply => [apply.unit, apply]))
  const processes = [{ configuration, requested: record.requested, released: [...order], applies: applied.map(unit => byUnit.get(unit)!) }] as unknown as BootRecord[]
  const run: CommandRun = { name: 'rerun', exitCode: 0, signal: null, results: [], processes, log: '', durationMs: 0 }
  return { status: passes(applied) ? 'passed' : 'failed', run }
}

/** `order` with `entry` moved to just before (or after) `anchor`. */
function placed(order: readonly string[], entry: string, anchor: string, after: boolean): string[] {
  const rest = order.filter(other => other !== entry)
  const at = rest.indexOf(anchor) + (after ? 1 : 0)
  return [...rest.slice(0, at), entry, ...rest.slice(at)]
}

async function blameOf(configuration: string, passes: (applied: readonly string[]) => boolean, [entry, anchor]: readonly [string, string], failure: string) {
  const { record, structure } = structureOf(configuration)
  const passing = placed(record.released, entry, anchor, false)
  const failing = placed(record.released, entry, anchor, true)
  const runUnder = async (order: readonly string[]) => runOf(configuration, structure, record, order, passes)
  expect((await runUnder(passing)).status).toBe('passed')
  expect((await runUnder(failing)).status).toBe('failed')
  const candidates = raceCandidates(configuration, { order: passing, run: (await runUnder(passing)).run }, { order: failing, run: (await runUnder(failing)).run })!
  let runs = 0
  const race = await isolateRace(configuration, candidates, passing, async order => (runs++, runUnder(order)), failure)
  return { race: race!, runs, flipped: candidates.pairs.length }
}

/** The diff vitest printed when the advanced pin broke (dsh's own failure, lines shortened). */
const ADVANCED_FAILURE = [
  'AssertionError: session 4f03: initial system prompt #1 diverged from advanced-toolchain/system-prompt.expected.md',
  '- Expected', '+ Received', '', '@@ -15,12 +15,10 @@', '',
  '  Track every background job id you start.', '',
  '  Use goal tools for one long-running completion objective in the current session.', '',
  '- Use the workflow tool ONLY when the user explicitly asks for a workflow or for large multi-agent orchestration.',
  '-',
  '  # Dynamic Cordis Plugins', '',
  '  Dynamic Cordis plugins temporarily extend the current DSH process. A Plugin uses apply(ctx) to consume Services.',
  '@@ -122,10 +120,12 @@', '',
  '  - After a technical failure, use cordis_inspect_self to read the exact Package source and its message/stack.',
  '  - Use the cordis-plugin-development Skill for other failure causes, repair procedures, and complete extension patterns.',
  '+',
  '+ Use the workflow tool ONLY when the user explicitly asks for a workflow or for large multi-agent orchestration.', '',
  '  Use the ralph tool ONLY when the direct human explicitly asks for a Ralph loop.', '',
  '  Use subagent in the background by default.',
].join('\n')

const before = (first: string, second: string) => (applied: readonly string[]) => applied.indexOf(first) < applied.indexOf(second)

describe('blame names the two plugins a pinned test races on', () => {
  it('dsh\'s pty tie: tool-terminal against tool-jobs, which the spine mounts with dozens of others the load order cannot split', async () => {
    const { race, runs, flipped } = await blameOf(PTY, before(TERMINAL, JOBS), ['base.pty', 'base.acp-agent'], PTY_FAILURE)
    expect(flipped).toBeGreaterThan(10)
    // Each run is arranged to split the open class pairs as evenly as the structure predicts: 15 pairs, one class pair left in at most 6 runs.
    expect(runs).toBeLessThanOrEqual(6)
    expect(new Set(race.plugins)).toEqual(new Set([TERMINAL, JOBS]))
    expect(race.how).toBe('class')
    expect(race.classes?.flat()).toContain(JOBS)
  })

  it('dsh\'s advanced tie from the swap of workflow-worker-thread and the app entry, where 84 plugin pairs flip: tool-workflow against tool-cordis', async () => {
    const { race, runs, flipped } = await blameOf(ADVANCED, before('base.tool-workflow', 'base.tool-cordis'), ['base.workflow-worker-thread', 'base.acp-agent'], ADVANCED_FAILURE)
    expect(flipped).toBeGreaterThan(50)
    expect(runs).toBeLessThanOrEqual(6)
    expect(race.how).toBe('isolated')
    expect(new Set(race.plugins)).toEqual(new Set(['base.tool-workflow', 'base.tool-cordis']))
  })

  it('dsh\'s advanced tie: tool-workflow against tool-cordis', async () => {
    const { race } = await blameOf(ADVANCED, before('base.tool-workflow', 'base.tool-cordis'), ['base.tool-workflow', 'base.acp-agent'], '')
    expect(new Set(race.plugins)).toEqual(new Set(['base.tool-workflow', 'base.tool-cordis']))
  })
})

/**
 * A pinned test narrowed from its two sides as a row gives them: the natural
 * order and its reverse (as a process following it realises it), each
 * side's confirming rerun given, every further rerun alone counted. Returns the blame and how many runs alone it took.
 */
async function narrowedFromSides(configuration: string, runs: Record<string, Recorded>, passes: (applied: readonly string[]) => boolean, failure: string) {
  const { record, structure } = structureOf(configuration, runs)
  const runUnder = (order: readonly string[]) => runOf(configuration, structure, record, order, passes)
  const reversed = realisable([...record.released].reverse(), structure.requires)
  const [passing, failing] = runUnder(record.released).status === 'passed' ? [record.released, reversed] : [reversed, record.released]
  expect(runUnder(passing).status).toBe('passed')
  expect(runUnder(failing).status).toBe('failed')
  let asked = 0
  const rerunner: RunsAlone = { alone: async (_test, _mode, rows) => (asked++, runUnder(rows[configuration]!)) }
  const side = (run: string, status: 'passed' | 'failed', order: readonly string[]) => ({ run, status, orders: { [configuration]: order } })
  const test = { file: 'examples/acp-agent/tests/acp.snapshot.ts', name: 'tied', status: 'failed' } as TestResult
  // The sides' confirming reruns alone, which narrowing takes as they are.
  const seen = new Map([passing, failing].map(order => [ordersKey({ [configuration]: order }), runUnder(order)]))
  const { blame } = await narrow(test, side('natural', 'passed', passing), side('schedule-1', 'failed', failing), seen, rerunner, failure)
  return { blame: blame!, asked, runUnder }
}

/** Whether `failing` is `passing` with one adjacent pair swapped. */
function oneSwapApart(passing: readonly string[], failing: readonly string[]): boolean {
  const at = passing.findIndex((entry, index) => entry !== failing[index])
  return at >= 0 && passing[at] === failing[at + 1] && passing[at + 1] === failing[at] && passing.slice(at + 2).join() === failing.slice(at + 2).join()
}

describe('narrowing from the two sides\' own runs', () => {
  const ties = [
    // The pty failure's words name both plugins: three runs isolate the class pair among the sides' 1 249 flipped pairs.
    { tie: 'pty', configuration: PTY, runs: naturalRuns[0]!, passes: before(TERMINAL, JOBS), plugins: [TERMINAL, JOBS], failure: PTY_FAILURE, whole: true },
    // The advanced failure's words are common to many plugins: once a run parts off less than a third of the open class pairs, the entries are bisected toward the nearest failing order, where those pairs change.
    { tie: 'advanced', configuration: ADVANCED, runs: naturalRuns[1]!, passes: before('base.tool-workflow', 'base.tool-cordis'), plugins: ['base.tool-workflow', 'base.tool-cordis'], failure: ADVANCED_FAILURE, whole: false },
  ]

  for (const { tie, configuration, runs, passes, plugins, failure, whole } of ties) {
    it(`dsh's ${tie} tie: the race bisected from the sides' flipped class pairs, and one swap of entries that flips it, both run`, async () => {
      const { blame, asked, runUnder } = await narrowedFromSides(configuration, runs, passes, failure)
      expect(new Set(blame.plugins)).toEqual(new Set(plugins))
      // Named among the pairs the whole sides flipped, or among those of the swap the entries' bisection found.
      if (whole) expect(blame.flipped).toBeGreaterThan(1000)
      else expect(blame.flipped).toBeLessThan(100)
      expect(oneSwapApart(blame.passing, blame.failing)).toBe(true)
      expect(runUnder(blame.passing).status).toBe('passed')
      expect(runUnder(blame.failing).status).toBe('failed')
      expect(blame.runs).toBe(asked + 2)
      // Bisecting the entries first took 10 to 14 runs on these structures; the failure's words aim the first splits.
      expect(asked).toBeLessThanOrEqual(9)
    })
  }

  it('a failure text that names the race\'s two plugins makes the bisection cheaper than none', async () => {
    const [pty] = ties
    const named = await narrowedFromSides(pty!.configuration, pty!.runs, pty!.passes, pty!.failure)
    const unnamed = await narrowedFromSides(pty!.configuration, pty!.runs, pty!.passes, '')
    expect(named.asked).toBeLessThan(unnamed.asked)
    // Without the words the class pair is still found (one plugin of the spine's class named).
    expect(unnamed.blame.plugins).toContain(TERMINAL)
    expect(unnamed.blame.how).toBe('class')
    expect(unnamed.blame.classes?.flat()).toContain(JOBS)
  })
})

describe('runs narrowing already made', () => {
  it('rule class pairs out before isolation runs any: given the first run a bisection made, a second one needs fewer runs and names the same pair', async () => {
    const passes = before('base.tool-workflow', 'base.tool-cordis')
    const { record, structure } = structureOf(ADVANCED)
    const passing = placed(record.released, 'base.workflow-worker-thread', 'base.acp-agent', false)
    const failing = placed(record.released, 'base.workflow-worker-thread', 'base.acp-agent', true)
    const runUnder = async (order: readonly string[]) => runOf(ADVANCED, structure, record, order, passes)
    const candidates = raceCandidates(ADVANCED, { order: passing, run: (await runUnder(passing)).run }, { order: failing, run: (await runUnder(failing)).run })!
    const made: Rerun[] = []
    const recorded = async (order: readonly string[]) => { const rerun = await runUnder(order); made.push(rerun); return rerun }
    const first = await isolateRace(ADVANCED, candidates, passing, recorded, ADVANCED_FAILURE)
    expect(made.length).toBeGreaterThan(1)
    let runs = 0
    const again = await isolateRace(ADVANCED, candidates, passing, async order => (runs++, runUnder(order)), ADVANCED_FAILURE, [made[0]!])
    expect(again!.plugins).toEqual(first!.plugins)
    expect(runs).toBeLessThan(made.length)
  })
})

describe('the failure text names a plugin of a class', () => {
  it('reads only the stretch of a diff that moved', () => {
    const stretch = swappedStretch(PTY_FAILURE)
    expect(stretch.startsWith('- Use a terminal session')).toBe(true)
    expect(stretch).toContain('job_kill jobs')
    expect(stretch).not.toContain('AI agent')
    expect(swappedStretch('no diff here')).toBe('no diff here')
  })

  it('weighs a word by how few plugins carry it: `jobs` names tool-jobs over `agent` in agent-loop-invariant', () => {
    const { structure } = structureOf(PTY)
    const score = failureScorer(structure, `${PTY_FAILURE}\n- an agent, an agent, an agent\n+ an agent, an agent, an agent`)
    expect(score(JOBS)).toBeGreaterThan(score('base.acp-agent › agent-spine-demo › agent-loop-invariant'))
    expect(score('base.acp-agent › agent-spine-demo › agent-loop-invariant')).toBeGreaterThan(0)
  })

  it('does not read words outside the diff\'s moved stretch', () => {
    const { structure } = structureOf(PTY)
    const score = failureScorer(structure, 'the loop invariant held\n- Expected\n+ Received\n\n- a jobs line\n+ a jobs line')
    expect(score('base.acp-agent › agent-spine-demo › agent-loop-invariant')).toBe(0)
    expect(score(JOBS)).toBeGreaterThan(0)
  })
})
