/**
 * An interleaving leaves the process's stack trace limit alone: a plugin
 * reading `Error.stackTraceLimit` or the frames of an error it made sees what
 * it sees without loadrace, and the sweep finds that deterministic.
 */
import { describe, expect, it } from 'vitest'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { loadedRealIoScenario } from '../../support/real-io-fixtures.ts'

const scenarioOf = loadedRealIoScenario('stacks', 'stack-reader')

/** What the plugin saw in one interleaving: the limit and the names of its own frames. */
async function seen(schedule: string[]): Promise<{ limit: number, frames: string[] }> {
  const result = await runInterleaving(scenarioOf(), referenceTarget, schedule)
  expect(result.projection.outcome).toBe('completed')
  const match = /\{\\"limit\\":\d+,\\"frames\\":\[[^\]]*\]\}/.exec(result.json)
  expect(match).not.toBeNull()
  return JSON.parse(JSON.parse(`"${match![0]}"`)) as { limit: number, frames: string[] }
}

describe('stack traces in an interleaving', () => {
  it('keep the process\'s own limit and the frames an error made three calls deep names', async () => {
    const outside = Error.stackTraceLimit
    expect(outside).toBeGreaterThan(3)
    const first = await seen(['stack-reader', 'tool-fast'])
    expect(first).toEqual({ limit: outside, frames: ['innermost', 'middle', 'outer'] })
    expect(await seen(['tool-fast', 'stack-reader'])).toEqual(first)
    expect(Error.stackTraceLimit).toBe(outside)
  })

  it('the sweep finds it deterministic', async () => {
    const report = await sweepScenario(scenarioOf(), { strategy: 'exhaustive', budget: 100, seed: '0', workers: 1 }, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
  })
})
