/**
 * What outside the scheduler can still make progress. Node lists its live
 * resources: requests in flight (file system, DNS, socket connects, writes)
 * always finish, as does work on the thread pool Node does not list
 * (`thread-pool.ts`: zlib steps, crypto jobs), as does a listen waiting for a
 * fixed port (`fixed-ports.ts`); child processes and their pipes finish when the child does;
 * other long-lived handles (timers, sockets, servers) may wake work later.
 *
 * Quiescence waits for the first kind (`ioInFlight`); for a child process, as
 * long as the system awaits it (`real-io.ts`). A run whose work
 * is unsettled while nothing at all can wake it (`nothingCanWake`: no request
 * in flight and no handle beyond the interleaving's baseline, held timers not
 * counted — they fire only when the scheduler releases them) is stuck, and
 * the harness says so at once instead of waiting for the timeout.
 */

import { threadPoolWorkInFlight } from './thread-pool.ts'
import { portWaitInFlight } from './fixed-ports.ts'

/** Work in flight no listed resource shows: thread-pool jobs, a listen waiting for a fixed port another process holds. */
function unlistedWorkInFlight(): boolean {
  return threadPoolWorkInFlight() || portWaitInFlight()
}

export type ResourceBaseline = ReadonlyMap<string, number>

/** A one-shot request (`FSReqPromise`, `FSReqCallback`, `GetAddrInfoReqWrap`, `ConnectWrap`, `WriteWrap`, `ShutdownWrap`, `CloseReq`, …). */
function isRequest(kind: string): boolean {
  return /Req|^ConnectWrap$|^WriteWrap$|^ShutdownWrap$|^SendWrap$/.test(kind)
}

function countResources(): Map<string, number> {
  const counts = new Map<string, number>()
  for (const kind of process.getActiveResourcesInfo()) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return counts
}

/** Whether a one-shot request (a file read, a DNS lookup, a write) is in flight: work that will wake the system when it completes. */
export function requestInFlight(): boolean {
  return unlistedWorkInFlight() || process.getActiveResourcesInfo().some(isRequest)
}

export function resourceBaseline(): ResourceBaseline {
  return countResources()
}

/** Whether a one-shot request the system started is still in flight: a request beyond the baseline, or thread-pool work. */
export function ioInFlight(baseline: ResourceBaseline): boolean {
  if (unlistedWorkInFlight()) return true
  for (const [kind, count] of countResources()) {
    if (isRequest(kind) && count > (baseline.get(kind) ?? 0)) return true
  }
  return false
}

/**
 * True when no request is in flight and no handle exists beyond the baseline
 * apart from `heldTimers` held timers: no timer, socket or I/O can wake anything up.
 */
export function nothingCanWake(baseline: ResourceBaseline, heldTimers: number): boolean {
  if (unlistedWorkInFlight()) return false
  for (const [kind, count] of countResources()) {
    if (kind === 'Immediate') continue
    if (isRequest(kind)) return false
    const allowed = (baseline.get(kind) ?? 0) + (kind === 'Timeout' ? heldTimers : 0)
    if (count > allowed) return false
  }
  return true
}
