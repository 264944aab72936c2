import { isCurrentProcess, type Host } from '../hosts/host.ts'
import type { Scenario } from '../scenario/scenario.ts'
import type { Schedule } from '../space/space.ts'
import { tokenOf } from '../token.ts'
import type { InterleavingRecord, Runner, RunSettings } from './runner.ts'
import type { Control } from '../runtime/operations.ts'
import { startWorker, type WorkerTransport } from './transport.ts'
import { JOBS_PER_MESSAGE, type WorkerJob, type WorkerReply, type WorkerSettings } from './worker-protocol.ts'

/** One interleaving handed to a worker, and who waits for it. */
interface Task {
  job: WorkerJob
  scenario: Scenario
  resolve(record: InterleavingRecord): void
  reject(error: Error): void
}

/** Where tasks come from: a `runAll` batch hands them out one at a time, a `runOne` has a single one. */
interface Source {
  batch: number
  /** The next task, or undefined when the source is used up. */
  next(): Task | undefined
  /** How many tasks it has still to hand out. */
  left(): number
}

/**
 * How many tasks a worker holds at once: a message's worth it is running and
 * the next message's worth, already in its inbox. With two workers busy on two
 * cores, the pool's own thread gets a core only now and then; a worker that
 * had to wait for it after every message would sit idle for that long. The
 * worker runs its tasks one after the other, never two at a time.
 */
export const TASKS_PER_WORKER = 2 * JOBS_PER_MESSAGE

/** One worker and the tasks sent to it, in the order it runs them (the first is running). */
interface Slot {
  worker: WorkerTransport
  number: number
  tasks: Task[]
  /** Set once the worker is ended or lost; its events are ignored from then on. */
  retired: boolean
  /** Tasks sent to it so far. */
  sent: number
}

function jobOf(scenario: Scenario, schedule: Schedule, fields: Pick<WorkerJob, 'id' | 'batch' | 'index' | 'alwaysJson' | 'control'>): WorkerJob {
  return { ...fields, file: scenario.file, scenario: scenario.name, variant: scenario.variant, target: scenario.target, schedule: [...schedule] }
}

/**
 * The worker runner: up to `size` worker processes (on this host, or on
 * another host's Node), started on demand, each running one interleaving at a
 * time and holding the next ones, sent and answered several to a message.
 * Every worker loads the scenario file itself (plugin modules cannot be sent),
 * so the scenario's `file` must be loadable from the working directory. A `runAll` hands out its schedules lazily, so a huge plan
 * costs nothing up front. A worker that crashes fails the interleaving it was
 * running with a message naming it (the one it held is handed out again);
 * aborting a `runAll` ends the workers busy with it at once. A pool of fresh
 * processes (`fresh`) gives each worker one interleaving and ends it after
 * that one: no interleaving runs where another ran before.
 */
class WorkerPool implements Runner {
  private readonly settings: WorkerSettings
  private readonly slots: Slot[] = []
  private sources: Source[] = []
  /** Tasks sent to a worker that ended before running them: handed out again first. */
  private requeued: Task[] = []
  private nextId = 0
  private nextBatch = 0
  private started = 0

  constructor(private readonly size: number, settings: RunSettings, private readonly host: Host | undefined, private readonly fresh: boolean) {
    this.settings = { ...settings }
  }

  runAll(scenario: Scenario, schedules: readonly Schedule[], onRecord: (record: InterleavingRecord) => void, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || schedules.length === 0) return Promise.resolve()
    const batch = this.nextBatch++
    return new Promise<void>((resolve, reject) => {
      let handedOut = 0
      let remaining = schedules.length
      let settled = false
      const finish = (error?: Error) => {
        if (settled) return
        settled = true
        signal?.removeEventListener('abort', abort)
        this.cancel(batch)
        if (error) reject(error)
        else resolve()
      }
      const abort = () => finish()
      signal?.addEventListener('abort', abort, { once: true })
      this.sources.push({
        batch,
        left: () => schedules.length - handedOut,
        next: () => {
          if (handedOut >= schedules.length) return undefined
          const index = handedOut++
          return {
            job: jobOf(scenario, schedules[index]!, { id: this.nextId++, batch, index, alwaysJson: false }),
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
      this.dispatch()
    })
  }

  runOne(scenario: Scenario, schedule: Schedule, control?: Control): Promise<InterleavingRecord & { json: string }> {
    const batch = this.nextBatch++
    return new Promise((resolve, reject) => {
      let task: Task | undefined = {
        job: jobOf(scenario, schedule, { id: this.nextId++, batch, index: -1, alwaysJson: true, ...control === undefined ? {} : { control } }),
        scenario,
        resolve(record) {
          if (record.json === undefined) reject(new Error(`worker returned no projection for ${tokenOf(scenario, schedule)}`))
          else resolve({ ...record, json: record.json })
        },
        reject,
      }
      this.sources.push({
        batch,
        next() {
          const taken = task
          task = undefined
          return taken
        },
        left: () => (task === undefined ? 0 : 1),
      })
      this.dispatch()
    })
  }

  async close(): Promise<void> {
    this.sources = []
    this.requeued = []
    const ending = this.slots.splice(0)
    for (const slot of ending) slot.retired = true
    await Promise.all(ending.map(slot => slot.worker.terminate()))
  }

  private retire(slot: Slot): void {
    slot.retired = true
    this.slots.splice(this.slots.indexOf(slot), 1)
    void slot.worker.terminate()
  }

  /** What a lost worker is called in the message of the interleaving it was running. */
  private nameOf(slot: Slot): string {
    return `worker process ${slot.number}${this.host === undefined ? '' : ` on host ${this.host.name}`}`
  }

  private lost(slot: Slot, cause: string): void {
    if (slot.retired) return
    const [task, ...waiting] = slot.tasks
    this.retire(slot)
    this.requeued.push(...waiting)
    if (task) task.reject(new Error(`${this.nameOf(slot)} crashed while running ${tokenOf(task.scenario, task.job.schedule)}: ${cause}`))
    this.dispatch()
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker(this.settings, this.host), number: ++this.started, tasks: [], retired: false, sent: 0 }
    slot.worker.on('message', (replies: readonly WorkerReply[]) => {
      for (const reply of replies) {
        const task = slot.tasks[0]
        if (slot.retired || !task || task.job.id !== reply.id) break
        slot.tasks.shift()
        if (this.fresh) this.retire(slot)
        if (reply.kind === 'record') task.resolve(reply.record)
        else task.reject(new Error(reply.message))
      }
      this.dispatch()
    })
    slot.worker.on('error', error => this.lost(slot, error.message))
    slot.worker.on('exit', code => this.lost(slot, `the process exited with code ${code}`))
    this.slots.push(slot)
    return slot
  }

  private nextTask(): Task | undefined {
    const again = this.requeued.shift()
    if (again) return again
    while (this.sources.length > 0) {
      const task = this.sources[0]!.next()
      if (task) return task
      this.sources.shift()
    }
    return undefined
  }

  /** The worker to send the next tasks to: an idle one, else a new one while the pool may grow, else one with room in its inbox for a message's worth. */
  private freeSlot(): Slot | undefined {
    if (this.fresh) return this.slots.find(candidate => candidate.sent === 0) ?? (this.slots.length < this.size ? this.spawn() : undefined)
    return this.slots.find(candidate => candidate.tasks.length === 0)
      ?? (this.slots.length < this.size ? this.spawn() : undefined)
      ?? this.slots.find(candidate => candidate.tasks.length <= TASKS_PER_WORKER - JOBS_PER_MESSAGE)
  }

  /**
   * How many tasks the next message carries: a full message while there is
   * plenty left, fewer towards the end, so that the last tasks are shared
   * among the workers rather than queued behind one of them; one for a pool
   * of fresh processes.
   */
  private messageSize(): number {
    if (this.fresh) return 1
    const left = this.requeued.length + this.sources.reduce((sum, source) => sum + source.left(), 0)
    return Math.max(1, Math.min(JOBS_PER_MESSAGE, Math.floor(left / this.size)))
  }

  private dispatch(): void {
    for (;;) {
      if (this.sources.length === 0 && this.requeued.length === 0) return
      const slot = this.freeSlot()
      if (!slot) return
      const jobs: WorkerJob[] = []
      for (let size = this.messageSize(); jobs.length < size;) {
        const task = this.nextTask()
        if (!task) break
        slot.tasks.push(task)
        jobs.push(task.job)
      }
      if (jobs.length === 0) return
      slot.sent += jobs.length
      slot.worker.postMessage(jobs)
    }
  }

  /** Stops handing out the tasks of `batch` and ends the workers holding one; their other tasks are handed out again. */
  private cancel(batch: number): void {
    this.sources = this.sources.filter(source => source.batch !== batch)
    this.requeued = this.requeued.filter(task => task.job.batch !== batch)
    for (const slot of [...this.slots]) {
      if (!slot.tasks.some(task => task.job.batch === batch)) continue
      this.retire(slot)
      this.requeued.push(...slot.tasks.filter(task => task.job.batch !== batch))
    }
    this.dispatch()
  }
}

/**
 * A pool of `size` worker processes on `host` (default: this process's Node
 * and environment); `fresh`: each runs one interleaving only. See {@link WorkerPool}.
 */
export function workerPool(options: { size: number, host?: Host, fresh?: boolean } & RunSettings): Runner {
  const { size, host: given, fresh, ...settings } = options
  const host = given !== undefined && !isCurrentProcess(given) ? given : undefined
  return new WorkerPool(size, settings, host, fresh === true)
}
