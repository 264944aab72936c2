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
 * The test a boot ran under, when the process is a vitest worker: its file
 * (relative to the project, `/`-separated), its project, and the full name
 * vitest's JSON reporter gives it (`name`); a boot made in a suite's
 * `beforeAll` or at a file's top level names that suite (`kind: 'suite'`) or
 * only the file (`kind: 'file'`, no name), and so runs for every test under
 * it. `concurrent` says the test was one of several running at once, whose
 * boots cannot be told apart.
 * @typedef {{
 *   file: string,
 *   project?: string,
 *   name?: string,
 *   kind: 'test' | 'suite' | 'file',
 *   concurrent?: true,
 * }} BootTest
 */

/**
 * What one boot of a loader did — a root loader tree a process (or worker
 * thread) started, and every include below it — written into the records
 * folder. `configuration` names what it booted: the outermost include's
 * cordis.yml, relative to the project, `/`-separated; for a cordis.yml in a
 * temporary folder or outside the project (a test writes one for each boot),
 * the test file or script, ` › `, the file's name and `#` a hash of the
 * entries it holds (ids as written, plugins, groups: not their config, which
 * may hold a port or a path), so that every run and every boot of the same
 * composition shares one name and one row; without an include, the entry
 * script (`entries#hash` under a test). `released` is the realised order:
 * the entries' imports in the order they settled. `row` is the order it was
 * given (absent in the natural run, and for a configuration the schedule did
 * not know, which `unknown` then says). `applies` is every plugin its
 * loader's entries applied, in the order they began (`applies.js`). `boot`
 * counts the boots of the thread from 1; `test` is the test it ran under.
 * @typedef {{
 *   pid: number,
 *   thread: number,
 *   boot: number,
 *   argv: readonly string[],
 *   mode: 'natural' | 'row',
 *   configuration: string | null,
 *   test?: BootTest,
 *   requested: readonly DecisionPoint[],
 *   released: readonly string[],
 *   row?: readonly string[],
 *   unknown?: true,
 *   failedImports: readonly string[],
 *   applies?: readonly import('./applies.js').Apply[],
 * }} BootRecord
 */

/** The name of the file a boot writes its record to. */
export function recordFileName(/** @type {number} */ pid, /** @type {number} */ thread, /** @type {number} */ boot) {
  return `boot-${pid}-${thread}-${boot}.json`
}

/** Whether a file of the records folder is a boot's record. */
export function isRecordFile(/** @type {string} */ name) {
  return /^boot-\d+-\d+-\d+\.json$/.test(name)
}

/** The file the vitest config loadrace wraps around the user's writes into the records folder: what it reached. */
export const VITEST_REACH_FILE = 'vitest-reach.json'

/**
 * What the wrapping config reached: every project of the user's config, by
 * name (or index), and whether the loader instrumentation was added to it
 * (a project loaded from a glob is not).
 * @typedef {{ projects: { project: string, reached: boolean, why?: string }[] }} VitestReach
 */
