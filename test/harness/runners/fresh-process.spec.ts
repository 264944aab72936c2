/**
 * `process: fresh`: every interleaving runs in a process of its own, as a
 * suite that starts the application once per test runs it. A plugin module
 * that counts its applies in module-level state names a tool after the count:
 * in one shared process the count carries from one interleaving to the next
 * (uncontrolled, as it is); in fresh processes every interleaving sees 1.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { runnersFor } from '../../../harness/runners/by-host.ts'
import { CURRENT_HOST } from '../../../harness/hosts/host.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

const COUNTING_MODULE = `let applied = 0
export default {
  name: 'counting',
  inject: ['tools'],
  apply(ctx) {
    const name = 'applied_' + ++applied
    ctx.tools.register({ name, description: name, parameters: { type: 'object', properties: {} }, execute: () => name })
  },
}
`

async function countingScenario(name: string, process: string) {
  const dir = await fixtureDir()
  await dir.write('counting.mjs', COUNTING_MODULE)
  return loadScenario(await dir.write(`${name}.yml`, `name: ${name}
app: none
${process}plugins:
  - id: counting
    module: ./counting.mjs
  - id: tool-a
    tools: [aaa]
  - id: tool-b
    tools: [bbb]
expect:
  outcome: completed
  deterministic: true
`))
}

afterAll(removeFixtureDirs)

const options = { strategy: 'exhaustive' as const, budget: 100, seed: '0', workers: 2 }

describe('process: fresh', () => {
  it('runs every interleaving, and every rerun, in a process of its own: module-level state starts afresh, the verdict is deterministic', async () => {
    const scenario = await countingScenario('fresh', 'process: fresh\n')
    expect(scenario.process).toBe('fresh')
    const runners = runnersFor({ workers: 2 })
    try {
      const report = await sweepScenario(scenario, options, { runner: runners.of(CURRENT_HOST), runners })
      expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true, explored: 6 })
      expect(report.outputs?.[0]?.tools).toEqual(['aaa', 'applied_1', 'bbb'])
    } finally {
      await runners.close()
    }
  })

  it('without it, interleavings share a worker process and the count carries over: uncontrolled', async () => {
    const scenario = await countingScenario('shared', '')
    expect(scenario.process).toBeUndefined()
    const runners = runnersFor({ workers: 2 })
    try {
      const report = await sweepScenario(scenario, options, { runner: runners.of(CURRENT_HOST), runners })
      expect(report.verdict).toBe('uncontrolled')
    } finally {
      await runners.close()
    }
  })

  it('is skipped, saying why, by a sweep that runs in this process only', async () => {
    const scenario = await countingScenario('in-process', 'process: fresh\n')
    const report = await sweepScenario(scenario, { ...options, workers: 1 }, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'skipped', skipped: 'it runs every interleaving in a process of its own (process: fresh), and this sweep runs in this process only', explored: 0 })
  })
})
