import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { environmentOf, isCurrentProcess, nodeBinaryOf, type Host } from '../hosts/host.ts'
import type { Scenario } from '../scenario/types.ts'
import type { Schedule } from '../space/space.ts'
import { tokenOf } from '../token.ts'
import type { RunRecord, Runner } from './runner.ts'
import type { WorkerJob, WorkerReply, WorkerSettings } from './worker-protocol.ts'

const BOOTSTRAP = new URL('./worker-bootstrap.js', import.meta.url)

/** One interleaving handed to a worker thread, and who waits for it. */
interface Task {
  job: WorkerJob
  scenario: Scenario
  resolve(record: RunRecord): void
  reject(error: Error): void
}

/** Where tasks come from: a `runAll` batch hands them out one at a time, a `runOne` has a single one. */
interface Source {
  batch: number
  /** The next task, or undefined when the source is used up. */
  next(): Task | undefined
}

/** A worker as the pool drives it: a thread, or a child process under another host. */
interface WorkerHandle {
  postMessage(job: WorkerJob): void
  on(event: 'message', listener: (reply: WorkerReply) => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  on(event: 'exit', listener: (code: number | null) => void): unknown
  terminate(): Promise<unknown>
}

/** Starts one worker: a thread of this process, or — for another host — a child process on that host's Node and environment. */
function startWorker(settings: WorkerSettings, host: Host | undefined): WorkerHandle {
  if (host === undefined || isCurrentProcess(host)) return new Worker(BOOTSTRAP, { workerData: settings })
  const child = fork(fileURLToPath(BOOTSTRAP), [], {
    execPath: nodeBinaryOf(host),
    env: { ...environmentOf(host), LOADRACE_WORKER: JSON.stringify(settings) },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return {
    postMessage: job => void child.send(job),
    on: (event: string, listener: (...args: never[]) => void) => child.on(event, listener as (...args: unknown[]) => void),
    terminate: () => new Promise(resolve => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined)
      child.once('exit', resolve)
      child.kill()
    }),
  }
}

/**
 * How many tasks a worker holds at once: the one it runs and the next, already
 * in its inbox. With two workers busy on two cores, the pool's own thread gets
 * a core only now and then; a worker that had to wait for it after every
 * interleaving would sit idle for that long. The worker runs its tasks one
 * after the other, never two at a time.
 */
export const TASKS_PER_WORKER = 2

/** One worker and the tasks sent to it, in the order it runs them (the first is running). */
interface Slot {
  worker: WorkerHandle
  number: number
  tasks: Task[]
  /** Set once the thread is ended or lost; its events are ignored from then on. */
  retired: boolean
}

function jobOf(scenario: Scenario, schedule: Schedule, fields: Pick<WorkerJob, 'id' | 'batch' | 'index' | 'alwaysJson'>): WorkerJob {
  return { ...fields, file: scenario.file, scenario: scenario.name, variant: scenario.variant, target: scenario.target, schedule: [...schedule] }
}

/**
 * The worker-thread runner: up to `size` threads, started on demand, each
 * running one interleaving at a time and holding the next. Every thread
 * loads the scenario file itself (plugin modules cannot be sent), so the
 * scenario's `file` must be loadable from the working directory. A `runAll`
 * hands out its schedules lazily, so a huge plan costs nothing up front. A
 * thread that crashes fails the interleaving it was running with a message
 * naming it (the one it held is handed out again); aborting a `runAll` ends
 * the threads busy with it at once.
 */
export function workerPool(options: { size: number, timeoutMs?: number, host?: Host }): Runner {
  const settings: WorkerSettings = { timeoutMs: options.timeoutMs }
  const slots: Slot[] = []
  let sources: Source[] = []
  /** Tasks sent to a worker that ended before running them: handed out again first. */
  let requeued: Task[] = []
  let nextId = 0
  let nextBatch = 0
  let started = 0

  function retire(slot: Slot): void {
    slot.retired = true
    slots.splice(slots.indexOf(slot), 1)
    void slot.worker.terminate()
  }

  function lost(slot: Slot, cause: string): void {
    if (slot.retired) return
    const [task, ...waiting] = slot.tasks
    retire(slot)
    requeued.push(...waiting)
    if (task) {
      const token = tokenOf(task.scenario, task.job.schedule)
      const where = options.host && !isCurrentProcess(options.host) ? `worker process ${slot.number} on host ${options.host.name}` : `worker thread ${slot.number}`
      task.reject(new Error(`${where} crashed while running ${token}: ${cause}`))
    }
    dispatch()
  }

  function spawn(): Slot {
    const slot: Slot = { worker: startWorker(settings, options.host), number: ++started, tasks: [], retired: false }
    slot.worker.on('message', (reply: WorkerReply) => {
      const task = slot.tasks[0]
      if (slot.retired || !task || task.job.id !== reply.id) return
      slot.tasks.shift()
      if (reply.kind === 'record') task.resolve(reply.record)
      else task.reject(new Error(reply.message))
      dispatch()
    })
    slot.worker.on('error', error => lost(slot, error.message))
    slot.worker.on('exit', code => lost(slot, `the ${options.host && !isCurrentProcess(options.host) ? 'process' : 'thread'} exited with code ${code}`))
    slots.push(slot)
    return slot
  }

  function nextTask(): Task | undefined {
    const again = requeued.shift()
    if (again) return again
    while (sources.length > 0) {
      const task = sources[0]!.next()
      if (task) return task
      sources.shift()
    }
    return undefined
  }

  /** The worker to send the next task to: an idle one, else a new one while the pool may grow, else one with room in its inbox. */
  function freeSlot(): Slot | undefined {
    return slots.find(candidate => candidate.tasks.length === 0)
      ?? (slots.length < options.size ? spawn() : undefined)
      ?? slots.find(candidate => candidate.tasks.length < TASKS_PER_WORKER)
  }

  function dispatch(): void {
    for (;;) {
      if (sources.length === 0 && requeued.length === 0) return
      const slot = freeSlot()
      if (!slot) return
      const task = nextTask()
      if (!task) return
      slot.tasks.push(task)
      slot.worker.postMessage(task.job)
    }
  }

  /** Stops handing out the tasks of `batch` and ends the threads holding one; their other tasks are handed out again. */
  function cancel(batch: number): void {
    sources = sources.filter(source => source.batch !== batch)
    requeued = requeued.filter(task => task.job.batch !== batch)
    for (const slot of [...slots]) {
      if (!slot.tasks.some(task => task.job.batch === batch)) continue
      retire(slot)
      requeued.push(...slot.tasks.filter(task => task.job.batch !== batch))
    }
    dispatch()
  }

  return {
    runAll(scenario, schedules, onRecord, signal) {
      if (signal?.aborted || schedules.length === 0) return Promise.resolve()
      const batch = nextBatch++
      return new Promise<void>((resolve, reject) => {
        let handedOut = 0
        let remaining = schedules.length
        let settled = false
        const finish = (error?: Error) => {
          if (settled) return
          settled = true
          signal?.removeEventListener('abort', abort)
          cancel(batch)
          if (error) reject(error)
          else resolve()
        }
        const abort = () => finish()
        signal?.addEventListener('abort', abort, { once: true })
        sources.push({
          batch,
          next() {
            if (handedOut >= schedules.length) return undefined
            const index = handedOut++
            return {
              job: jobOf(scenario, schedules[index]!, { id: nextId++, batch, index, alwaysJson: false }),
              scenario,
              resolve(record) {
                if (settled) return
                onRecord(record)
                if (--remaining === 0) finish()
              },
              reject: finish,
            }
          },
        })
        dispatch()
      })
    },
    runOne(scenario, schedule) {
      const batch = nextBatch++
      return new Promise((resolve, reject) => {
        let task: Task | undefined = {
          job: jobOf(scenario, schedule, { id: nextId++, batch, index: -1, alwaysJson: true }),
          scenario,
          resolve(record) {
            if (record.json === undefined) reject(new Error(`worker returned no projection for ${tokenOf(scenario, schedule)}`))
            else resolve({ ...record, json: record.json })
          },
          reject,
        }
        sources.push({
          batch,
          next() {
            const taken = task
            task = undefined
            return taken
          },
        })
        dispatch()
      })
    },
    async close() {
      sources = []
      requeued = []
      const ending = slots.splice(0)
      for (const slot of ending) slot.retired = true
      await Promise.all(ending.map(slot => slot.worker.terminate()))
    },
  }
}
