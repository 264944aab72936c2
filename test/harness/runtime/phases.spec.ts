import { describe, expect, it } from 'vitest'
import { defaultTimeoutOf, runInterleaving, type InterleavingPhase } from '../../../harness/runtime/interleaving.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'

/** The phases an interleaving reports (benchmarks time them), in the order it reports them. */
async function phasesOf(file: string, schedule: readonly string[]): Promise<InterleavingPhase[]> {
  const phases: InterleavingPhase[] = []
  await runInterleaving(await loadScenario(file), referenceTarget, schedule, { onPhase: phase => phases.push(phase) })
  return phases
}

describe('an interleaving\'s phases', () => {
  it('are reported once each, in order, by a run that completes', async () => {
    expect(await phasesOf('scenarios/multi-turn-invariant.yml', ['tool-zulu', 'tool-alpha', 'tool-mike'])).toEqual(['setup', 'boot', 'turns', 'projection', 'teardown'])
  })

  it('skip what a run that stops in its boot never reaches', async () => {
    expect(await phasesOf('scenarios/faults/apply-hangs.yml', ['tool-alpha', 'tool-hangs'])).toEqual(['setup', 'projection', 'teardown'])
  })
})

describe('an interleaving\'s default timeout', () => {
  it('is 5 s, and 30 s for a whole application (app: entries), whose boot and ACP turn are seconds of real work', () => {
    expect(defaultTimeoutOf({ app: 'none' })).toBe(5_000)
    expect(defaultTimeoutOf({ app: 'stdio-agent' })).toBe(5_000)
    expect(defaultTimeoutOf({ app: 'entries' })).toBe(30_000)
  })
})
