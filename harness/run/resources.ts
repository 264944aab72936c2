/**
 * Whether anything outside the scheduler can still make progress: Node lists
 * its live timers, sockets and file requests. If none was added since the
 * interleaving started and work is still unsettled, nothing will ever settle
 * it — the run is stuck, and the harness says so at once instead of waiting
 * for the timeout.
 */

export type ResourceBaseline = ReadonlyMap<string, number>

function countResources(): Map<string, number> {
  const counts = new Map<string, number>()
  for (const kind of process.getActiveResourcesInfo()) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return counts
}

export function resourceBaseline(): ResourceBaseline {
  return countResources()
}

/** True when no live resource exists beyond the baseline: no timer, socket or I/O can wake anything up. */
export function nothingCanWake(baseline: ResourceBaseline): boolean {
  for (const [kind, count] of countResources()) {
    if (kind === 'Immediate') continue
    if (count > (baseline.get(kind) ?? 0)) return false
  }
  return true
}
