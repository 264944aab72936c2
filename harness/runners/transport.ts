import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { environmentOf, isCurrentProcess, nodeBinaryOf, type Host } from '../hosts/host.ts'
import type { WorkerJob, WorkerReply, WorkerSettings } from './worker-protocol.ts'

const BOOTSTRAP = new URL('./worker-bootstrap.js', import.meta.url)

/**
 * A worker as the pool drives it, whatever carries its messages: a thread of
 * this process, or a child process on another host's Node.
 */
export interface WorkerTransport {
  /** `thread` or `process`, as messages about a crashed worker name it. */
  readonly kind: 'thread' | 'process'
  postMessage(job: WorkerJob): void
  on(event: 'message', listener: (reply: WorkerReply) => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  on(event: 'exit', listener: (code: number | null) => void): unknown
  terminate(): Promise<unknown>
}

/** A worker thread of this process. */
function threadTransport(settings: WorkerSettings): WorkerTransport {
  const worker = new Worker(BOOTSTRAP, { workerData: settings })
  return Object.assign(worker, { kind: 'thread' as const })
}

/** A child process on `host`'s Node and environment, speaking the same protocol over its IPC channel. */
function processTransport(settings: WorkerSettings, host: Host): WorkerTransport {
  const child = fork(fileURLToPath(BOOTSTRAP), [], {
    execPath: nodeBinaryOf(host),
    env: { ...environmentOf(host), LOADRACE_WORKER: JSON.stringify(settings) },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return {
    kind: 'process',
    postMessage: job => void child.send(job),
    on: (event: string, listener: (...args: never[]) => void) => child.on(event, listener as (...args: unknown[]) => void),
    terminate: () => new Promise(resolve => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined)
      child.once('exit', resolve)
      child.kill()
    }),
  }
}

/** Starts one worker: a thread of this process, or — for another host — a child process on that host's Node and environment. */
export function startWorker(settings: WorkerSettings, host: Host | undefined): WorkerTransport {
  return host === undefined || isCurrentProcess(host) ? threadTransport(settings) : processTransport(settings, host)
}
