/**
 * Identity marker for requests the agent loop built itself. The reconstruction
 * invariant checks only marked requests, so an envelope rebuilt by middleware
 * (a new object) silently escapes it — which is exactly what the RFC warns about.
 */

const loopRequests = new WeakSet<object>()

/** Records `request` (by identity) as built by the agent loop and returns it unchanged. */
export function markAgentLoopRequest<T extends object>(request: T): T {
  loopRequests.add(request)
  return request
}

/** Whether `value` is the exact object the agent loop marked. */
export function isAgentLoopRequest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && loopRequests.has(value)
}
