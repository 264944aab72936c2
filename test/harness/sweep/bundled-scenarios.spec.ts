import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findScenarioFiles, loadScenario, loadScenarios } from '../../../harness/scenario/load.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { explore } from '../../../harness/explore/explore.ts'
import { parseToken } from '../../../harness/token.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { expectDeterministic } from '../../../harness/vitest.ts'
import { leakEscaped } from '../../../harness/plugins/faults.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'

const base = { strategy: 'auto' as const, budget: 5040, seed: '0', workers: 1 }

async function sweepFile(file: string, overrides: Partial<Parameters<typeof sweepScenario>[1]> = {}): Promise<ScenarioReport> {
  return sweepScenario(await loadScenario(file), { ...base, ...overrides }, { runner: inProcessRunner() })
}

/** A runner that remembers every effective schedule it ran. */
function recordingRunner(seen: string[][]): Runner {
  const inner = inProcessRunner()
  return {
    ...inner,
    runAll: (scenario, schedules, onRecord, signal) => inner.runAll(scenario, schedules, (record) => {
      seen.push(record.schedule)
      onRecord(record)
    }, signal),
  }
}

const bundled = await findScenarioFiles(['scenarios'])

describe('bundled scenarios', () => {
  it('include every scenario the simulator issue asks for', () => {
    const names = bundled.map(file => relative('scenarios', file))
    for (const name of ['ci-flake.yml', 'lexicographic-six.yml', 'tool-order-placement.yml', 'batch-interleave.yml', 'unknown-tool-order-name.yml',
      'reserved-tool-name.yml', 'tool-order-empty.yml', 'tool-order-missing-rest.yml', 'tool-order-duplicate.yml', 'listener-append.yml',
      'listeners-non-commuting.yml', 'shared-tool-name.yml', 'registration-order-policy.yml']) {
      expect(names).toContain(name)
    }
  })

  it.each(bundled)('%s meets its expectation', async (file) => {
    const report = await sweepFile(file)
    expect(report.problems).toEqual([])
    expect(report.passed).toBe(true)
    const scenario = await loadScenario(file)
    expect(report.verdict).toBe(scenario.expect.outcome === 'stuck' ? 'stuck' : scenario.expect.deterministic ? 'deterministic' : 'divergent')
  })
})

describe('the CI flake', () => {
  it('is byte-identical in every interleaving under the canonical policy', async () => {
    const report = await sweepFile('scenarios/ci-flake.yml')
    expect(report).toMatchObject({ verdict: 'deterministic', explored: 2, space: '2', guarantee: 'exhaustive', distinctOutputs: 1 })
    expect(report.outputs[0]!.tools).toEqual(['list_agents', 'task', 'todo_write'])
  })

  it('diverges within 2 interleavings under registration order and blames tool-subagent and tool-todo', async () => {
    const scenario = { ...await loadScenario('scenarios/ci-flake.yml'), variant: 'registration-order' as const }
    const exploration = await explore(scenario, inProcessRunner(), { ...base })
    expect(exploration.firstDivergenceAt).not.toBeNull()
    expect(exploration.firstDivergenceAt!).toBeLessThanOrEqual(2)
    const report = await sweepFile('scenarios/ci-flake.yml', { variant: 'registration-order' })
    expect(report.verdict).toBe('divergent')
    expect([...report.divergence!.blame].sort()).toEqual(['tool-subagent', 'tool-todo'])
    expect(report.divergence!.part).toBe('header')
    expect(report.divergence!.kind).toBe('order')
    expect(report.divergence!.diff).toContain('todo_write')
  })
})

describe('exploration', () => {
  it('visits exactly 720 distinct schedules of 6 single-batch tool plugins when exhaustive', async () => {
    const seen: string[][] = []
    const report = await sweepScenario(await loadScenario('scenarios/lexicographic-six.yml'), { ...base, strategy: 'exhaustive' }, { runner: recordingRunner(seen) })
    expect(seen).toHaveLength(720)
    expect(new Set(seen.map(schedule => schedule.join(','))).size).toBe(720)
    expect(report).toMatchObject({ explored: 720, space: '720', guarantee: 'exhaustive', verdict: 'deterministic' })
  })

  it('interleaves registration batches of different plugins', async () => {
    const seen: string[][] = []
    await sweepScenario(await loadScenario('scenarios/batch-interleave.yml'), { ...base, strategy: 'exhaustive' }, { runner: recordingRunner(seen) })
    expect(seen).toHaveLength(30)
    expect(seen.map(s => s.join(','))).toContain('tool-fs,tool-shell,tool-fs#2,tool-todo,tool-shell#2')
  })
})

describe('replay tokens', () => {
  const scenarios = ['registration-order-policy', 'listeners-non-commuting', 'unknown-tool-order-name', 'batch-interleave', 'tool-order-empty']

  it.each(scenarios)('of %s reproduce the reported hashes', async (name) => {
    const report = await sweepFile(`scenarios/${name}.yml`)
    const tokens = [...report.outputs.map(output => [output.token, output.hash] as const)]
    expect(tokens.length).toBeGreaterThan(0)
    for (const [token, hash] of tokens) {
      const parsed = parseToken(token)
      const scenario: Scenario = { ...await loadScenario(`scenarios/${parsed.scenario}.yml`), variant: parsed.variant }
      const replay = await runInterleaving(scenario, referenceTarget, parsed.schedule)
      expect(replay.hash).toBe(hash)
      expect(replay.schedule).toEqual(parsed.schedule)
    }
  })

  it('of a minimal counterexample differ by one adjacent swap of the blamed plugins', async () => {
    const report = await sweepFile('scenarios/registration-order-policy.yml')
    const [left, right] = report.divergence!.tokens.map(token => parseToken(token).schedule)
    const differing = left!.flatMap((op, i) => (op === right![i] ? [] : [i]))
    expect(differing).toHaveLength(2)
    expect(differing[1]! - differing[0]!).toBe(1)
    expect([left![differing[0]!], left![differing[1]!]]).toEqual(report.divergence!.blame)
    expect([right![differing[0]!], right![differing[1]!]]).toEqual([...report.divergence!.blame].reverse())
  })
})

describe('verdicts', () => {
  it('reports nondeterminism the scheduler does not control as uncontrolled', async () => {
    const report = await sweepFile('scenarios/lexicographic-six.yml', { variant: 'listener-random', budget: 10 })
    expect(report.verdict).toBe('uncontrolled')
    expect(report.passed).toBe(false)
    expect(report.problems[0]).toContain('replayed to different bytes')
  })

  it('names only the listener pair in the swap matrix of two non-commuting listeners', async () => {
    const report = await sweepFile('scenarios/listeners-non-commuting.yml')
    expect(report.divergence!.swaps).toEqual({
      plugins: ['tool-alpha', 'listener-append', 'listener-reverse'],
      changed: [['listener-append', 'listener-reverse']],
    })
  })

  it('reports a stuck interleaving at once (no progress possible, not the timeout), with the operation it waits for', async () => {
    const report = await sweepFile('scenarios/faults/import-hangs.yml')
    expect(report.verdict).toBe('stuck')
    expect(report.outputs).toHaveLength(1)
    const parsed = parseToken(report.outputs[0]!.token)
    const replay = await runInterleaving(await loadScenario('scenarios/faults/import-hangs.yml'), referenceTarget, parsed.schedule)
    expect(replay.projection.stuck).toEqual({ reason: 'no-progress', phase: 'boot', waiting: ['tool-hangs'] })
  })
})

describe('isolation', () => {
  it('removes timers and process listeners a plugin leaks, so no interleaving sees another', async () => {
    const listeners = process.listenerCount('loadrace-leak')
    const report = await sweepFile('scenarios/faults/leak.yml')
    await new Promise(resolve => setTimeout(resolve, 30))
    expect(report.verdict).toBe('deterministic')
    expect(report.outputs[0]!.tools).toEqual(['alpha', 'beta', 'leaky'])
    expect(leakEscaped()).toBe(false)
    expect(process.listenerCount('loadrace-leak')).toBe(listeners)
  })
})

describe('expectDeterministic', () => {
  it('resolves for a deterministic scenario', async () => {
    const report = await expectDeterministic('scenarios/ci-flake.yml')
    expect(report.verdict).toBe('deterministic')
  })

  it('fails with the blame pair, the diff and both replay tokens otherwise', async () => {
    const failure = await expectDeterministic('scenarios/ci-flake.yml', { variant: 'registration-order' }).then(() => undefined, (error: Error) => error)
    expect(failure).toBeInstanceOf(Error)
    expect(failure!.message).toMatch(/blame: tool-(subagent|todo) ↔ tool-(subagent|todo) \(header, order\)/)
    expect(failure!.message).toContain("npx loadrace replay 'ci-flake@registration-order:")
    expect(failure!.message).toContain('@@')
  })
})

it('finds every bundled scenario file', async () => {
  const scenarios = await loadScenarios(['scenarios'])
  expect(scenarios.length).toBe(bundled.length)
  expect(readdirSync(join('scenarios', 'faults')).length).toBeGreaterThanOrEqual(5)
})
