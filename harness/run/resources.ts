/**
 * Whether anything outside the scheduler can still make progress. Node lists
 * its live resources: pending requests (file system, DNS, writes) always can
 * wake work up; long-lived handles (timers, sockets, pipes, ports) can when
 * there are more of them than when the interleaving started. If none can and
 * work is still unsettled, nothing will ever settle it: the run is stuck, and
 * the harness says so at once instead of waiting for the timeout.
 */

export type ResourceBaseline = ReadonlyMap<string, number>

/** A one-shot request in flight (`FSReqPromise`, `FSReqCallback`, `CloseReq`, `GetAddrInfoReqWrap`, `WriteWrap`, …). */
function isRequest(kind: string): boolean {
  return /Req|WriteWrap|ShutdownWrap/.test(kind)
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
  return process.getActiveResourcesInfo().some(isRequest)
}

export function resourceBaseline(): ResourceBaseline {
  return countResources()
}

/** True when no request is in flight and no handle exists beyond the baseline: no timer, socket or I/O can wake anything up. */
export function nothingCanWake(baseline: ResourceBaseline): boolean {
  for (const [kind, count] of countResources()) {
    if (kind === 'Immediate') continue
    if (isRequest(kind)) return false
    if (count > (baseline.get(kind) ?? 0)) return false
  }
  return true
}
