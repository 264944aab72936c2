/**
 * What an exploration means, for the verdicts the sweep specs reach only
 * through the command: nothing ran, a stuck interleaving, and a divergence
 * whose one side the system's crash cut short.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { analyse } from '../../../harness/judge/analyse.ts'
import type { Exploration } from '../../../harness/explore/exploration.ts'
import { RunCache } from '../../../harness/runners/run-cache.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const OPTIONS = { strategy: 'exhaustive' as const, budget: 100, seed: '0', workers: 1 }

async function scenarioOf(files: Record<string, string>) {
  const dir = await fixtureDir()
  for (const [name, text] of Object.entries(files)) await dir.write(name, text)
  return loadScenario(`${dir.root}/s.yml`)
}

describe('analyse', () => {
  it('an exploration with no output is an error: nothing ran', async () => {
    const scenario = await scenarioOf({ 's.yml': 'app: none\nplugins:\n  - { id: a, tools: [a] }\nexpect:\n  outcome: completed\n' })
    const nothing = { outputs: [] } as unknown as Exploration
    expect(await analyse(scenario, nothing, new RunCache(inProcessRunner(), scenario))).toEqual({ verdict: 'error' })
  })

  it('a stuck interleaving is the verdict, with the schedule that replays it, before any order is blamed', async () => {
    // Stuck only when tool-a comes first (its apply then waits forever), so the outputs also differ.
    const module = 'export default { name: \'late\', inject: [\'tools\'], async apply(ctx) { if (ctx.tools.get(\'a\')) await new Promise(() => {}) } }\n'
    const scenario = await scenarioOf({ 'late.mjs': module, 's.yml': 'app: none\nplugins:\n  - { id: tool-a, tools: [a] }\n  - { id: late, module: ./late.mjs }\nexpect:\n  outcome: completed\n  deterministic: false\n' })
    const report = await sweepScenario(scenario, OPTIONS, { runner: inProcessRunner() })
    expect(report.distinctOutputs).toBe(2)
    expect(report.verdict).toBe('stuck')
    const stuck = report.outputs.find(output => output.token.endsWith(':tool-a,late'))
    expect(stuck).toBeDefined()
    expect(report.problems[0]).toBe(`interleaving ${stuck!.token} is stuck (no-progress during boot; waiting for late)`)
    expect(report.divergence).toBeNull()
  })

  it('a divergence whose one side crashed names no moved contribution and no section diff; an ordinary one does', async () => {
    const exits = 'export default { name: \'bad\', inject: [\'tools\'], apply(ctx) { if (!ctx.tools.get(\'a\')) process.exit(3) } }\n'
    const crashing = await scenarioOf({ 'bad.mjs': exits, 's.yml': 'app: none\nplugins:\n  - { id: tool-a, tools: [a] }\n  - { id: bad, module: ./bad.mjs }\nexpect:\n  outcome: completed\n  deterministic: false\n' })
    const cut = await sweepScenario(crashing, OPTIONS, { runner: inProcessRunner() })
    expect(cut.verdict).toBe('divergent')
    expect(cut.divergence).toMatchObject({ part: 'errors', moved: [] })
    expect(cut.divergence!.sections).toBeUndefined()
    expect(cut.divergence!.swaps.changed).toEqual([['tool-a', 'bad']])
    const racing = await scenarioOf({ 's.yml': 'app: none\nvariant: registration-order\nplugins:\n  - { id: ta, tools: [ta] }\n  - { id: tb, tools: [tb] }\nexpect:\n  outcome: completed\n  deterministic: false\n' })
    const ordinary = await sweepScenario(racing, OPTIONS, { runner: inProcessRunner() })
    expect(ordinary.divergence!.moved.map(item => item.name).sort()).toEqual(['ta', 'tb'])
    expect(ordinary.divergence!.tokens).toHaveLength(2)
  })
})
