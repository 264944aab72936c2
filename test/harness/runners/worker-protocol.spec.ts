import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { interleavingRecord } from '../../../harness/runners/runner.ts'
import type { WorkerJob, WorkerReply } from '../../../harness/runners/worker-protocol.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { witnessScenario } from '../../support/process-witness.ts'

/**
 * The pool and its workers talk over an IPC channel with `serialization:
 * 'advanced'`: every message is copied with the structured clone algorithm,
 * which `structuredClone` runs here.
 */
let scenario: Scenario
beforeAll(async () => { scenario = await witnessScenario() })
afterAll(removeFixtureDirs)

describe('the worker protocol', () => {
  it('carries a job, and a reply with the full record of a real run, unchanged', async () => {
    const job: WorkerJob = { id: 3, batch: 1, alwaysJson: true, file: scenario.file, scenario: scenario.name, variant: scenario.variant, target: scenario.target, schedule: ['other', 'where'], index: 0 }
    expect(structuredClone(job)).toStrictEqual(job)
    const record = await interleavingRecord(scenario, job.schedule, job.index)
    const replies: WorkerReply[] = [{ kind: 'record', id: job.id, record }, { kind: 'failed', id: job.id, message: 'boom' }]
    for (const reply of replies) expect(structuredClone(reply)).toStrictEqual(reply)
  })

  it('names the scenario file rather than carrying the scenario: a module plugin is live code, which no message can carry', () => {
    expect(scenario.plugins.some(plugin => plugin.kind === 'module')).toBe(true)
    expect(() => structuredClone(scenario)).toThrow()
  })
})
