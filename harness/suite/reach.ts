import type { TestReach } from '../report/test-report.ts'
import type { CommandRun } from './command-run.ts'

/**
 * How far a test run reached: the loader boots its runs of the plan made,
 * how many followed a row, in how many tests, and every boot that did not
 * (by why); for a vitest command, the projects its config lists and
 * whether the wrapping config reached each.
 */

/** Why a boot in a run of the plan had no row. */
const UNKNOWN = 'its configuration did not boot in the natural run, so no row names it (it ran unperturbed)'
/** Why nothing was controlled when the plan has no run besides the natural run. */
const NATURAL_ONLY = 'the plan had no run besides the natural run, which records and reorders nothing'

/** What booted a record: its test (file and name), its suite, its file, or the command itself. */
function bootedBy(record: CommandRun['processes'][number]): string {
  const test = record.test
  if (test === undefined) return '(the command)'
  return test.name === undefined ? test.file : `${test.file} › ${test.name}`
}

/** The reach of the natural run and the runs of the plan after it. */
export function reachOf(natural: CommandRun, runs: readonly CommandRun[]): TestReach {
  const projects = natural.vitest?.projects
  const withProjects = projects === undefined ? {} : { projects }
  if (runs.length === 0) {
    const boots = natural.processes.length
    return { boots, controlled: 0, tests: 0, uncontrolled: boots === 0 ? [] : [{ why: NATURAL_ONLY, boots }], ...withProjects }
  }
  const records = runs.flatMap(run => run.processes)
  const controlled = records.filter(record => record.row !== undefined)
  const unknown = records.filter(record => record.unknown === true).length
  const ambiguous = controlled.filter(record => record.test?.concurrent === true).length
  return {
    boots: records.length,
    controlled: controlled.length,
    tests: new Set(controlled.map(bootedBy)).size,
    uncontrolled: unknown === 0 ? [] : [{ why: UNKNOWN, boots: unknown }],
    ...ambiguous === 0 ? {} : { ambiguous },
    ...withProjects,
  }
}
