// @ts-check
/**
 * The one rule by which a planned order is followed, for the in-process
 * scheduler (`runtime/drive.ts`) and for the preload in the processes of
 * `loadrace test` (`release.js`) alike: release the first operation of the
 * row that may go now; else one the row does not name, as the system itself
 * would run it. An operation the row names that may not go yet (its entry
 * has not been requested: it waits for a group or include not applied yet)
 * simply goes later, so an order the system cannot make is realised as it
 * can be, never forced.
 */

/**
 * The next operation to release, and whether the row names it; undefined
 * when nothing may go.
 * @param {readonly string[]} remaining the row's operations not yet released, in row order
 * @param {(label: string) => boolean} ready whether an operation may be released now
 * @param {() => string | undefined} unnamed the operation the row does not name that the system would run now, if any
 * @returns {{ label: string, named: boolean } | undefined}
 */
export function nextRelease(remaining, ready, unnamed) {
  for (const label of remaining) if (ready(label)) return { label, named: true }
  const label = unnamed()
  return label === undefined ? undefined : { label, named: false }
}
