// @ts-check
/**
 * The test running in a vitest worker when a boot starts. vitest's runner
 * keeps the task it is running in the worker's state (`__vitest_worker__`,
 * on the test realm's global): the file while it is collected, a suite
 * while its hooks run, the test while it and its `beforeEach`/`afterEach`
 * run. The names from that task up to the file, joined by spaces, are the
 * full name vitest's JSON reporter gives a test, so a boot is matched to the
 * results loadrace reads. Outside a vitest worker there is none.
 */
import { relative, sep } from 'node:path'

/**
 * @typedef {{ name?: string, type?: string, suite?: Task, file?: Task, concurrent?: boolean }} Task
 * @typedef {{ current?: Task, filepath?: string, ctx?: { projectName?: string } }} WorkerState
 */

/**
 * The test (or suite, or file) `realm`'s vitest worker is running, relative to `project`.
 * @param {object | undefined} realm the global of the test's realm (a vm pool's context has its own)
 * @param {string} project
 * @returns {import('./protocol.js').BootTest | undefined}
 */
export function testOf(realm, project) {
  const state = /** @type {WorkerState | undefined} */ (/** @type {Record<string, unknown>} */ (realm ?? globalThis).__vitest_worker__ ?? /** @type {Record<string, unknown>} */ (globalThis).__vitest_worker__)
  const filepath = state?.filepath
  if (state === undefined || typeof filepath !== 'string') return undefined
  const file = relative(project, filepath).split(sep).join('/')
  const project_ = state.ctx?.projectName
  /** @type {string[]} */
  const names = []
  let concurrent = false
  let task = state.current
  const kind = task === undefined || task.file === task ? 'file' : task.type === 'test' ? 'test' : 'suite'
  // A test or suite at a file's top level has no `suite` (or the file as its suite).
  for (; task !== undefined && task.file !== task; task = task.suite) {
    names.unshift(task.name ?? '')
    if (task.concurrent === true) concurrent = true
  }
  return {
    file,
    ...project_ ? { project: project_ } : {},
    ...kind === 'file' ? {} : { name: names.join(' ') },
    kind,
    ...concurrent ? { concurrent: /** @type {const} */ (true) } : {},
  }
}
