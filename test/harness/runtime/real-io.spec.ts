/**
 * Real I/O the system starts — a child process answering after real time, a
 * long-lived helper server — keeps its timing and is ended with the
 * interleaving: a timeout guarding an answer never fires before it could
 * without loadrace, a helper that answered costs no wait, and every
 * interleaving's disposers run and its processes are reaped before the next.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { alive, awaitGone, helperMarks, realIoFolders, realIoScenario } from '../../support/real-io-fixtures.ts'

const folders = realIoFolders()
const marksDir = () => folders.marks()

const sweepOptions = { strategy: 'exhaustive' as const, budget: 100, seed: '0', workers: 1 }

describe('a child process the system awaits keeps its real timing', () => {
  it('a helper answering after 250 ms beats its 2 s timeout in every interleaving, and the verdict is deterministic', async () => {
    const scenario = await loadScenario(await realIoScenario(folders.dir(), 'answering', 'answering-helper'))
    const report = await sweepScenario(scenario, sweepOptions, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
    for (const schedule of [['answering-helper', 'tool-fast'], ['tool-fast', 'answering-helper']]) {
      const result = await runInterleaving(scenario, referenceTarget, schedule)
      expect(result.json).toContain('"answered"')
      expect(result.json).not.toContain('timed out')
    }
  })
})

describe('a long-lived helper server is part of the system until teardown', () => {
  it('costs no idle wait, its disposer runs in every interleaving, and no helper outlives the sweep', async () => {
    const marks = await marksDir()
    // A timeout shorter than the helper's life: waiting for the helper to exit would end every interleaving stuck.
    const scenario = await loadScenario(await realIoScenario(folders.dir(), 'server', 'helper-server', JSON.stringify({ marks }), 'timeout: 3000\n'))
    const report = await sweepScenario(scenario, sweepOptions, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
    for (const schedule of [['tool-fast', 'helper-server'], ['helper-server', 'tool-fast']]) {
      const result = await runInterleaving(scenario, referenceTarget, schedule)
      expect(result.projection.outcome).toBe('completed')
      expect(result.json).toContain('"ready"')
      // No wait ran into the timeout: the helper, up and idle, kept nothing waiting.
      expect(result.waitedOut).toBeUndefined()
    }
    const { started, disposed } = helperMarks(marks)
    expect(started.length).toBeGreaterThanOrEqual(3)
    expect(disposed).toEqual(started)
    expect(started.filter(alive)).toEqual([])
  })

  it('a helper whose disposer never kills it is killed and reaped by teardown all the same', async () => {
    const marks = await marksDir()
    const scenario = await loadScenario(await realIoScenario(folders.dir(), 'unkilled', 'helper-server', JSON.stringify({ marks, keep: true }), 'timeout: 3000\n'))
    const result = await runInterleaving(scenario, referenceTarget, ['helper-server', 'tool-fast'])
    expect(result.projection.outcome).toBe('completed')
    const { started } = helperMarks(marks)
    expect(started).toHaveLength(1)
    expect(await awaitGone(started, 0)).toEqual([])
  })
})
