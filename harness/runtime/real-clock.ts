/**
 * loadrace's own clocks: the real ones, captured before `held-clocks.js`
 * replaces what the system reads. The harness measures deadlines, grace
 * periods and real-time floors with these, in or out of the system's scope.
 */

/** Real milliseconds since the process started (monotonic). */
export const realNow: () => number = performance.now.bind(performance)

/** Real milliseconds since the epoch. */
export const wallNow: () => number = Date.now
