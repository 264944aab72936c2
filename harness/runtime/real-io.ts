/**
 * Real I/O the system starts: child processes and their pipes, sockets,
 * servers, file watchers, and worker threads (`worker-threads.ts`). Unlike a
 * file read or a DNS lookup, each may stay open for as long as the system
 * likes, and its answers take real time nobody controls.
 *
 * Recorded where Node creates the handle (an async hook), with the chain of
 * the code that created it (`sut-context.ts`), so the interleaving knows
 *
 * - what is open: while anything is, the virtual clock runs no faster than
 *   real time (see `operations.ts`): a timeout guarding an answer never fires
 *   before it could without loadrace;
 * - what the system still awaits: a child process is awaited until it exits,
 *   or until the work of the entry that started it has settled (a long-lived
 *   helper that answered is background, and costs no wait);
 * - what to end at teardown: every child process still running is killed and
 *   reaped, every other handle closed, before the next interleaving starts
 *   ({@link RealIo.end}); and on the way out of the process
 *   ({@link killEverything}).
 */
import { createHook } from 'node:async_hooks'
import { constants } from 'node:os'
import { destroyWatch } from './destroy-watch.ts'
import { pause } from './quiescence.ts'
import { realNow } from './real-clock.ts'
import { currentScope, type OpenedIo } from './sut-context.ts'

/** Async-hook types of handles that stay open until closed: processes, pipes, sockets, servers, watchers. */
const HANDLE_TYPES = new Set(['PROCESSWRAP', 'PIPEWRAP', 'PIPESERVERWRAP', 'TCPWRAP', 'TCPSERVERWRAP', 'UDPWRAP', 'FSEVENTWRAP', 'STATWATCHER'])

/** How long a child process has to exit on SIGTERM before SIGKILL. */
export const TERM_GRACE_MS = 500
/** How long teardown waits for killed processes to be reaped and closed handles to be gone. */
export const CLOSE_WAIT_MS = 2_000

/** The parts of a native handle teardown uses. */
interface NativeHandle {
  pid?: number
  /** The file descriptor of a stream handle. */
  fd?: number
  kill?(signal: number): number
  close?(callback?: () => void): void
}

/** A thread the system started, as teardown ends it. */
export interface Thread {
  terminate(): Promise<unknown>
}

/** What teardown needs of an opened handle or thread. */
interface Opened extends OpenedIo {
  readonly handle: NativeHandle | undefined
  readonly thread: Thread | undefined
}

/** Every handle open in any interleaving, by async id: the destroy hook closes it. */
const open = new Map<number, Opened>()
let nextThreadId = -1

/** Hears of a handle's destruction; on only while a handle or thread is open (see `destroy-watch.ts`). */
const destroyed = destroyWatch((id) => {
  const opened = open.get(id)
  if (!opened) return
  opened.closed = true
  open.delete(id)
}, () => open.size === 0)

const hook = createHook({
  init(id, type, _trigger, resource) {
    if (!HANDLE_TYPES.has(type)) return
    const scope = currentScope()
    if (scope === undefined) return
    const opened: Opened = { type, chain: scope.chain, handle: resource as NativeHandle, thread: undefined, closed: false }
    open.set(id, opened)
    destroyed.tracking()
    scope.monitor.realIoOpened?.(opened)
  },
})
hook.enable()

/** Records a thread the system started in the current scope (see `worker-threads.ts`); returns its closer. */
export function threadStarted(thread: Thread): { exited(): void } {
  const scope = currentScope()
  const id = nextThreadId--
  const opened: Opened = { type: 'WORKER', chain: scope?.chain ?? '', handle: undefined, thread, closed: false }
  if (scope !== undefined) {
    open.set(id, opened)
    destroyed.tracking()
    scope.monitor.realIoOpened?.(opened)
  }
  return {
    exited() {
      opened.closed = true
      open.delete(id)
      destroyed.settle()
    },
  }
}

/** What an entry that has not settled may be waiting for until it ends: a child process, its pipes, a thread. */
const AWAITED_TYPES = new Set(['PROCESSWRAP', 'PIPEWRAP', 'WORKER'])

/** The process's own standard input or output, first touched by the system's code: the process's, not the system's. */
function isStdio(opened: Opened): boolean {
  const fd = opened.handle?.fd
  return typeof fd === 'number' && fd >= 0 && fd <= 2
}

function isProcess(opened: Opened): boolean {
  return opened.type === 'PROCESSWRAP'
}

function signal(opened: Opened, name: 'SIGTERM' | 'SIGKILL'): void {
  try {
    opened.handle?.kill?.(constants.signals[name])
  } catch {
    // Gone already.
  }
}

/** What Node builds around a native handle (a `net.Socket`, `net.Server`, `fs.FSWatcher`, `dgram.Socket`), as teardown closes it. */
interface HandleOwner {
  destroy?(): void
  close?(): void
}

/**
 * The object Node built around `handle`, when there is one. Closing that
 * object, not the handle beneath it, lets whoever holds it see the close: a
 * keep-alive socket in a connection pool that outlives the interleaving (the
 * process-wide `fetch` dispatcher's) is then dropped from the pool, where a
 * handle closed beneath it would stay pooled and fail the next interleaving's
 * request on a dead handle.
 */
function ownerOf(handle: NativeHandle | undefined): HandleOwner | undefined {
  if (handle === undefined) return undefined
  const symbol = Object.getOwnPropertySymbols(handle).find(each => each.description === 'owner_symbol')
  const owner = symbol === undefined ? undefined : (handle as Record<symbol, unknown>)[symbol]
  return typeof owner === 'object' && owner !== null && owner !== handle ? owner as HandleOwner : undefined
}

function close(opened: Opened): void {
  if (opened.thread) {
    void opened.thread.terminate().catch(() => {})
    return
  }
  try {
    const owner = ownerOf(opened.handle)
    if (typeof owner?.destroy === 'function') owner.destroy()
    else if (typeof owner?.close === 'function') owner.close()
    else opened.handle?.close?.()
  } catch {
    // Closing already.
  }
}

/** Waits until every one of `items` is closed, or `ms` passed; true when all closed. */
async function closedWithin(items: readonly Opened[], ms: number): Promise<boolean> {
  const until = realNow() + ms
  while (items.some(item => !item.closed)) {
    if (realNow() >= until) return false
    await pause(5)
  }
  return true
}

/** The real I/O of one interleaving. */
export class RealIo {
  private readonly opened: Opened[] = []
  /** The kinds of everything opened so far, open or closed, in order of first opening. */
  private readonly kinds = new Set<string>()

  /** Records what the system opened (called from its scope, inside the async hook: the handle is not to be read yet). */
  add(opened: OpenedIo): void {
    this.opened.push(opened as Opened)
    // A pipe may be the process's own standard stream: known only once it is built (see `live`).
    if (opened.type !== 'PIPEWRAP') this.kinds.add(opened.type)
  }

  /** The kinds (async-hook types, `WORKER`) of what the system opened in this interleaving, the process's own standard streams aside. */
  openedKinds(): string[] {
    this.live()
    return [...this.kinds]
  }

  private live(): Opened[] {
    for (let i = this.opened.length - 1; i >= 0; i--) {
      const opened = this.opened[i]!
      if (opened.closed || isStdio(opened)) this.opened.splice(i, 1)
      else this.kinds.add(opened.type)
    }
    return this.opened
  }

  /** Whether anything the system started is still open. */
  isOpen(): boolean {
    return this.live().length > 0
  }

  /**
   * Whether a child process or thread the system awaits is running, or a
   * child's pipes are still open: opened by a chain for which `unsettled`
   * holds (its work has not settled).
   */
  childAwaited(unsettled: (chain: string) => boolean): boolean {
    return this.live().some(opened => AWAITED_TYPES.has(opened.type) && unsettled(opened.chain))
  }

  /**
   * Ends everything still open: child processes get SIGTERM, then SIGKILL
   * after {@link TERM_GRACE_MS}, and are awaited until reaped; every other
   * handle is closed, every thread terminated. Returns what did not end
   * within {@link CLOSE_WAIT_MS} (kinds, for the report).
   */
  async end(): Promise<string[]> {
    const left = [...this.live()]
    if (left.length === 0) return []
    const processes = left.filter(isProcess)
    for (const opened of processes) signal(opened, 'SIGTERM')
    for (const opened of left) if (!isProcess(opened)) close(opened)
    if (!await closedWithin(processes, TERM_GRACE_MS)) for (const opened of processes) if (!opened.closed) signal(opened, 'SIGKILL')
    await closedWithin(left, CLOSE_WAIT_MS)
    return this.live().map(opened => opened.type)
  }
}

/** Kills every child process any interleaving left running, at once (the process is on its way out). */
export function killEverything(): void {
  for (const opened of open.values()) {
    if (isProcess(opened)) signal(opened, 'SIGKILL')
    else if (opened.thread) void opened.thread.terminate().catch(() => {})
  }
}

process.on('exit', killEverything)
