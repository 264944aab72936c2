/**
 * Fixed ports, shared by every process on the machine. A system may listen on
 * a port it names (dsh's web-fetch fixture server listens on 43117, because
 * the fetched URL is part of its recorded transcript). Run as its developers
 * run it, one system is on the machine at a time; worker processes run
 * interleavings side by side, and the second system's bind would fail with
 * `EADDRINUSE`: a failure of loadrace's making, never the system's.
 *
 * So a listen on a fixed port inside an interleaving first takes that port's
 * lock, a file in the temporary folder naming the process that holds it, and
 * keeps it until the server closes, the interleaving's teardown ends (which
 * closes every server it opened) or the process exits. A listen that finds the port held by another live process
 * waits for it, in real time, as work in flight: the system is not at rest
 * while it waits, and none of its timers fires meanwhile. Waiting is first
 * come, first served: each waiting process says so with a file of its own
 * beside the lock, and takes the lock only when no process waits ahead of it,
 * so a worker that releases the port and listens again in its next
 * interleaving does not keep it from the others. A lock or a wait whose process is gone is taken over. A port the same process holds is not waited for:
 * interleavings in one process run one at a time, so that is the system's own
 * second bind, and it meets what it would meet without loadrace.
 */
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pause } from './quiescence.ts'
import { currentScope, outsideSut } from './sut-context.ts'

/** How often a waiting listen looks at the lock again. */
const POLL_MS = 10

/** The lock file of `port`. */
export function portLockFile(port: number): string {
  return join(tmpdir(), `loadrace-port-${port}.lock`)
}

/** The file that says this process waits for `port`. */
function waitFile(port: number, pid = process.pid): string {
  return join(tmpdir(), `loadrace-port-${port}.wait-${pid}`)
}

/**
 * Whether another live process waits for `port` ahead of this one: any, when
 * this one is not waiting (`since` undefined); else one that began to wait
 * earlier (`since`: when this one began; the lower pid first on a tie). The
 * files of processes that are gone are removed.
 */
function othersAhead(port: number, since: number | undefined): boolean {
  const prefix = `loadrace-port-${port}.wait-`
  let ahead = false
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(prefix)) continue
    const pid = Number(name.slice(prefix.length))
    if (pid === process.pid) continue
    const file = join(tmpdir(), name)
    if (!alive(pid)) {
      rmSync(file, { force: true })
      continue
    }
    const began = startOf(file)
    if (since === undefined || (began !== undefined && (began < since || (began === since && pid < process.pid)))) ahead = true
  }
  return ahead
}

/** When the process behind wait file `file` began to wait; undefined when the file is gone. */
function startOf(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs
  } catch {
    return undefined
  }
}

/** Locks this process holds, by port. */
const held = new Set<number>()
/** Listens waiting for another process's lock. */
let waiting = 0

/** Whether a listen of the system waits for a port another process holds: work that will resume when that port is free. */
export function portWaitInFlight(): boolean {
  return waiting > 0
}

/** The fixed port a `listen(…)` call asks for, or undefined (an ephemeral port, a path, a handle). */
export function fixedPortOf(args: readonly unknown[]): number | undefined {
  const [first] = args
  const port = typeof first === 'object' && first !== null ? (first as { port?: unknown }).port : first
  const number = typeof port === 'string' && /^\d+$/.test(port) ? Number(port) : port
  return typeof number === 'number' && Number.isInteger(number) && number > 0 && number < 65536 ? number : undefined
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The process named by a lock file; undefined while its owner is still writing it. */
function ownerOf(file: string): number | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim()
    return /^\d+$/.test(text) ? Number(text) : undefined
  } catch {
    return undefined
  }
}

/** Takes `port`'s lock for this process: true when it now holds it (or already did); `since`: when this process began to wait for it. */
function tryLock(port: number, since?: number): boolean {
  if (held.has(port)) return true
  if (othersAhead(port, since)) return false
  const file = portLockFile(port)
  try {
    const fd = openSync(file, 'wx')
    try {
      writeSync(fd, String(process.pid))
    } finally {
      closeSync(fd)
    }
    held.add(port)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true // No lock to be had (a read-only temporary folder): listen as without loadrace.
    const owner = ownerOf(file)
    if (owner === process.pid) {
      held.add(port)
      return true
    }
    if (owner !== undefined && !alive(owner)) rmSync(file, { force: true })
    return false
  }
}

/** Gives `port`'s lock back. */
function unlock(port: number): void {
  if (!held.delete(port)) return
  if (ownerOf(portLockFile(port)) === process.pid) rmSync(portLockFile(port), { force: true })
}

/**
 * Gives back every lock this process holds: when an interleaving's teardown
 * has closed everything it opened (a bind that failed never emits 'close'),
 * and when the process is on its way out.
 */
export function unlockEveryPort(): void {
  for (const port of [...held]) unlock(port)
}

const listen = Server.prototype.listen

function lockedListen(this: Server, ...args: unknown[]): Server {
  const port = fixedPortOf(args)
  if (port === undefined || currentScope() === undefined) return listen.apply(this, args as Parameters<typeof listen>)
  const start = () => {
    this.once('close', () => unlock(port))
    return listen.apply(this, args as Parameters<typeof listen>)
  }
  if (tryLock(port)) return start()
  waiting++
  writeFileSync(waitFile(port), '')
  const since = startOf(waitFile(port))
  void (async () => {
    try {
      while (!tryLock(port, since)) await outsideSut(() => pause(POLL_MS))
    } finally {
      waiting--
      rmSync(waitFile(port), { force: true })
    }
    start()
  })()
  return this
}

Server.prototype.listen = lockedListen as typeof listen
process.on('exit', unlockEveryPort)
