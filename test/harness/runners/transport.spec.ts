import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, type WorkerTransport } from '../../../harness/runners/transport.ts'
import type { WorkerJob, WorkerReply } from '../../../harness/runners/worker-protocol.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { alive, whereRan, witnessScenario } from '../../support/process-witness.ts'

let scenario: Scenario
beforeAll(async () => { scenario = await witnessScenario() })
afterAll(removeFixtureDirs)

function job(id: number, schedule: string[]): WorkerJob {
  return { id, batch: 0, alwaysJson: true, file: scenario.file, scenario: scenario.name, variant: scenario.variant, target: scenario.target, schedule, index: id }
}

function nextReplies(worker: WorkerTransport): Promise<readonly WorkerReply[]> {
  return new Promise(resolve => { worker.on('message', resolve) })
}

describe('a worker transport', () => {
  it("starts a child process on this process's Node, speaks the protocol over IPC, and ends it on terminate", async () => {
    const worker = startWorker({}, undefined)
    const exits: (number | null)[] = []
    worker.on('exit', code => { exits.push(code) })
    const replied = nextReplies(worker)
    worker.postMessage([job(1, ['where', 'other'])])
    const [reply, ...more] = await replied
    expect(more).toEqual([])
    if (!reply) throw new Error('expected one reply')
    if (reply.kind !== 'record') throw new Error(`expected a record, got ${JSON.stringify(reply)}`)
    expect(reply.id).toBe(1)
    const { pid } = whereRan(reply.record)
    expect(pid).not.toBe(process.pid)
    expect(reply.record.runtime?.node).toBe(process.version)
    await worker.terminate()
    expect(exits).toHaveLength(1)
    expect(alive(pid)).toBe(false)
    // Ending a worker that has already ended resolves at once.
    await worker.terminate()
  })
})
