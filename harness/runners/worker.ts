/**
 * A worker of the pool — a child process on this host's Node or another
 * host's (`harness/hosts/`): loads scenario files itself, runs the
 * interleavings it is sent one after the other (the pool sends the next
 * while one runs), and answers each with its record, several to a message.
 * Started through `worker-bootstrap.js`, which makes TypeScript importable.
 */
import { loadScenario } from '../scenario/load.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { interleavingRecord, type InterleavingRecord } from './runner.ts'
import { withOverrides } from '../scenario/overrides.ts'
import { JOBS_PER_MESSAGE, type WorkerJob, type WorkerReply, type WorkerSettings } from './worker-protocol.ts'
import { killEverything } from '../runtime/real-io.ts'

/** The channel to the pool: the process's IPC channel. */
interface Port {
  on(event: 'message', listener: (jobs: readonly WorkerJob[]) => void): unknown
  postMessage(replies: readonly WorkerReply[]): void
}

function processPort(): Port {
  const send = process.send?.bind(process)
  if (!send) throw new Error('harness/runners/worker.ts runs only as a child process with an IPC channel')
  return { on: (event, listener) => process.on(event, listener), postMessage: replies => void send(replies) }
}

const port: Port = processPort()

/**
 * Ended by the pool (SIGTERM) or interrupted with the sweep (SIGINT): the
 * child processes the system started die with the worker, not after it.
 */
const exit = process.exit.bind(process)
for (const [name, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  process.on(name, () => {
    killEverything()
    exit(code)
  })
}
const settings = JSON.parse(process.env.LOADRACE_WORKER ?? '{}') as WorkerSettings

/** Loaded scenario files, by path: each file is imported once per process. */
const loaded = new Map<string, Promise<Scenario>>()
/** The hashes whose JSON this worker already sent, for the current batch. */
let sent = { batch: -1, hashes: new Set<string>() }

async function scenarioOf(job: WorkerJob): Promise<Scenario> {
  let scenario = loaded.get(job.file)
  if (!scenario) {
    scenario = loadScenario(job.file)
    loaded.set(job.file, scenario)
  }
  const original = await scenario
  if (original.name !== job.scenario) {
    throw new Error(`${job.file} now holds scenario "${original.name}", not "${job.scenario}"`)
  }
  return withOverrides(original, job)
}

async function run(job: WorkerJob): Promise<InterleavingRecord> {
  const record: InterleavingRecord = await interleavingRecord(await scenarioOf(job), job.schedule, job.index, job.control === undefined ? settings : { ...settings, control: job.control })
  if (sent.batch !== job.batch) sent = { batch: job.batch, hashes: new Set() }
  if (sent.hashes.has(record.hash) && !job.alwaysJson) delete record.json
  sent.hashes.add(record.hash)
  return record
}

/** The end of the work queued so far: the pool may send jobs while one runs; jobs run one after the other. */
let queue: Promise<void> = Promise.resolve()
/** Jobs received and not yet answered. */
let waiting = 0
/** Answers not yet sent: they go when there are {@link JOBS_PER_MESSAGE} of them, or when nothing is left to run. */
let answers: WorkerReply[] = []

function answer(reply: WorkerReply): void {
  answers.push(reply)
  waiting--
  if (answers.length < JOBS_PER_MESSAGE && waiting > 0) return
  port.postMessage(answers)
  answers = []
}

port.on('message', (jobs: readonly WorkerJob[]) => {
  for (const job of jobs) {
    waiting++
    queue = queue.then(() => run(job).then(
      (record): WorkerReply => ({ kind: 'record', id: job.id, record }),
      (error: unknown): WorkerReply => ({ kind: 'failed', id: job.id, message: error instanceof Error ? error.message : String(error) }),
    )).then(answer)
  }
})
