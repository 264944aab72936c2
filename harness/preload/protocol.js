// @ts-check
/**
 * What `loadrace test` and its preload say to each other, and nothing else:
 * the environment variables the driver sets for the command it runs, the
 * schedule file it writes for each run of the command, and the record each
 * process writes back. Both sides import this file, so neither can drift.
 */

/** The folder each process of the run writes its record into (one file per process and thread). */
export const RECORDS_VARIABLE = 'LOADRACE_TEST_RECORDS'
/** The schedule file of this run of the command (see {@link RunSchedule}). */
export const SCHEDULE_VARIABLE = 'LOADRACE_TEST_SCHEDULE'

/**
 * What one run of the command does to every process that boots a cordis
 * loader: in the `natural` run nothing is reordered, only recorded; in a
 * `row` run, a process that boots configuration C releases its loader's
 * imports in `rows[C]`, and a process booting a configuration the file does
 * not name runs unperturbed and says so.
 * @typedef {{
 *   mode: 'natural' | 'row',
 *   project: string,
 *   rows: Record<string, readonly string[]>,
 * }} RunSchedule
 */

/**
 * One decision point a process met: a loader entry's import, by label, and
 * how many imports had been released when it was requested (it could not
 * have gone before those, so it may depend on them).
 * @typedef {{ label: string, enabledAt: number }} DecisionPoint
 */

/**
 * What one process (or worker thread) did, written into the records folder.
 * `configuration` is the cordis.yml it booted (the outermost include's file,
 * relative to the project, `/`-separated), or the entry script when no
 * include was involved. `released` is the realised order: the entries'
 * imports in the order they settled. `row` is the order it was given
 * (absent in the natural run, and for a configuration the schedule did not
 * know, which `unknown` then says). `applies` is every plugin its loader's
 * entries applied, in the order they began (`applies.js`).
 * @typedef {{
 *   pid: number,
 *   thread: number,
 *   argv: readonly string[],
 *   mode: 'natural' | 'row',
 *   configuration: string | null,
 *   requested: readonly DecisionPoint[],
 *   released: readonly string[],
 *   row?: readonly string[],
 *   unknown?: true,
 *   failedImports: readonly string[],
 *   applies?: readonly import('./applies.js').Apply[],
 * }} ProcessRecord
 */

/** The name of the file a process writes its record to. */
export function recordFileName(/** @type {number} */ pid, /** @type {number} */ thread) {
  return `process-${pid}-${thread}.json`
}
