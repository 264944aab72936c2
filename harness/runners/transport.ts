import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { environmentOf, nodeBinaryOf, type Host } from '../hosts/host.ts'
import type { WorkerJob, WorkerReply, WorkerSettings } from './worker-protocol.ts'

const BOOTSTRAP = new URL('./worker-bootstrap.js', import.meta.url)

/**
 * A worker as the pool drives it: a child process, on this process's Node or
 * on another host's. Workers are processes, not threads, because each
 * interleaving runs in a working directory of its own, which a worker thread
 * cannot change to (`process.chdir` is the process's).
 */
export interface WorkerTransport {
  /** Sends jobs for the worker to run one after the other, in this order. */
  postMessage(jobs: readonly WorkerJob[]): void
  /** Answers, in the order their jobs were sent. */
  on(event: 'message', listener: (replies: readonly WorkerReply[]) => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  on(event: 'exit', listener: (code: number | null) => void): unknown
  terminate(): Promise<unknown>
}

/**
 * Starts one worker: a child process on `host`'s Node and environment (this
 * process's own when `host` is undefined), speaking the pool's protocol over
 * its IPC channel.
 */
export function startWorker(settings: WorkerSettings, host: Host | undefined): WorkerTransport {
  const child = fork(fileURLToPath(BOOTSTRAP), [], {
    execPath: host === undefined ? process.execPath : nodeBinaryOf(host),
    env: { ...host === undefined ? process.env : environmentOf(host), LOADRACE_WORKER: JSON.stringify(settings) },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return {
    postMessage: jobs => void child.send(jobs),
    on: (event: string, listener: (...args: never[]) => void) => child.on(event, listener as (...args: unknown[]) => void),
    terminate: () => new Promise(resolve => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined)
      child.once('exit', resolve)
      child.kill()
    }),
  }
}
