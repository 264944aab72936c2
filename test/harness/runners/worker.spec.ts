import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, type WorkerTransport } from '../../../harness/runners/transport.ts'
import { JOBS_PER_MESSAGE, type WorkerJob, type WorkerReply } from '../../../harness/runners/worker-protocol.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { whereRan, witnessScenario } from '../../support/process-witness.ts'

let scenario: Scenario
let worker: WorkerTransport
const replies = new Map<number, (reply: WorkerReply) => void>()
const order: number[] = []
/** How many answers each message from the worker carried. */
const messageSizes: number[] = []

beforeAll(async () => {
  scenario = await witnessScenario()
  worker = startWorker({}, undefined)
  worker.on('message', (answers) => {
    messageSizes.push(answers.length)
    for (const reply of answers) {
      order.push(reply.id)
      replies.get(reply.id)?.(reply)
    }
  })
})
afterAll(async () => {
  await worker.terminate()
  await removeFixtureDirs()
})

let nextId = 0
/** Sends one message of jobs; the answers, in the order of `each`. */
function sendAll(each: readonly Partial<WorkerJob>[]): Promise<WorkerReply[]> {
  const jobs = each.map((fields): WorkerJob => ({ id: nextId++, batch: 0, alwaysJson: false, file: scenario.file, scenario: scenario.name, variant: scenario.variant, target: scenario.target, schedule: ['where', 'other'], index: 0, ...fields }))
  const answered = jobs.map(job => new Promise<WorkerReply>(resolve => { replies.set(job.id, resolve) }))
  worker.postMessage(jobs)
  return Promise.all(answered)
}

async function send(fields: Partial<WorkerJob>): Promise<WorkerReply> {
  const [reply] = await sendAll([fields])
  return reply!
}

function recordOf(reply: WorkerReply) {
  if (reply.kind !== 'record') throw new Error(`expected a record, got ${JSON.stringify(reply)}`)
  return reply.record
}

describe('a worker process', () => {
  it('runs the jobs it is sent one after the other, answering each by id, in the order sent', async () => {
    order.length = 0
    const sent = [send({ batch: 1, index: 0 }), send({ batch: 1, index: 1, schedule: ['other', 'where'] }), send({ batch: 1, index: 2 })]
    const records = (await Promise.all(sent)).map(recordOf)
    expect(records.map(record => record.index)).toEqual([0, 1, 2])
    expect(records.map(record => record.schedule)).toEqual([['where', 'other'], ['other', 'where'], ['where', 'other']])
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(new Set(records.map(record => whereRan(record).pid)).size).toBe(1)
  })

  it('answers the jobs of one message together, a message at most per JOBS_PER_MESSAGE answers, and sends what it has once it has nothing left to run', async () => {
    messageSizes.length = 0
    const count = JOBS_PER_MESSAGE + 2
    const records = (await sendAll(Array.from({ length: count }, (_, index) => ({ batch: 4, index })))).map(recordOf)
    expect(records.map(record => record.index)).toEqual(Array.from({ length: count }, (_, index) => index))
    expect(messageSizes).toEqual([JOBS_PER_MESSAGE, 2])
    // Jobs sent one to a message while it is idle are answered one to a message: none waits for company.
    messageSizes.length = 0
    await send({ batch: 4 })
    await send({ batch: 4 })
    expect(messageSizes).toEqual([1, 1])
  })

  it('sends the bytes of an output once per batch, unless the job asks for them always', async () => {
    const first = recordOf(await send({ batch: 2 }))
    const again = recordOf(await send({ batch: 2 }))
    const asked = recordOf(await send({ batch: 2, alwaysJson: true }))
    const nextBatch = recordOf(await send({ batch: 3 }))
    expect(again.hash).toBe(first.hash)
    expect([first.json === undefined, again.json === undefined, asked.json === undefined, nextBatch.json === undefined]).toEqual([false, true, false, false])
    expect(asked.json).toBe(first.json)
  })

  it('answers a job whose file no longer holds the scenario it names with a failure naming both', async () => {
    expect(await send({ scenario: 'renamed' })).toEqual({ kind: 'failed', id: nextId - 1, message: `${scenario.file} now holds scenario "${scenario.name}", not "renamed"` })
  })

  it('answers a job naming a missing file with a failure naming the file, and goes on working', async () => {
    const reply = await send({ file: `${scenario.file}.missing.yml` })
    expect(reply.kind).toBe('failed')
    expect(reply.kind === 'failed' && reply.message).toContain(`${scenario.file}.missing.yml`)
    expect(recordOf(await send({})).outcome).toBe('completed')
  })
})

