import { join, resolve } from 'node:path'
import { discardFolder, replaceFolder, stagingFolder } from '../report/folder.ts'
import { renderFiles, type Reporter } from '../report/reporter.ts'
import type { TestReport } from '../report/test-report.ts'
import { writeFilesAtomically } from '../report/write.ts'
import type { Settings } from '../settings/settings.ts'
import { watchInterruptions } from '../signals/interrupt.ts'
import { ProcessGroups } from '../signals/process-groups.ts'
import type { TestCommand } from './command-line.ts'
import type { RunPlace } from './command-run.ts'
import { Interrupted } from './interrupted.ts'
import { NothingJudged } from './nothing-judged.ts'
import { replayOrder } from './replay.ts'
import { NATURAL_RUN } from './runs.ts'
import { testReport, type TestReportParts } from './test-report.ts'
import { testSuite } from './test-suite.ts'

/**
 * `loadrace test` as the command asks for it: the plan's runs and verdicts,
 * or a replay, with the reporters told as it goes and the report written.
 *
 * The report folder is replaced whole: everything of this run — each run's
 * output, schedule and process records, then the report files — is written
 * into a staging folder beside it, which takes the folder's place at the
 * end, so no file of an earlier run outlives this one (a replay's report, or
 * one that says nothing could be judged, replaces a full run's). SIGINT or
 * SIGTERM ends every command still running (its whole process group); the
 * report of what ran so far is written, `complete: false`, saying where it
 * stopped and marking every verdict the unfinished part could change.
 */

/** What a test run needs besides its settings. */
export interface TestModeRequest {
  readonly command: TestCommand
  readonly settings: Settings
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** Told as the run goes; their files are written into the report folder. */
  readonly reporters: readonly Reporter<TestReport>[]
}

/** What a test run ended with. */
export interface TestModeResult {
  readonly report: TestReport
  readonly written: readonly string[]
  /** The exit code of the signal that interrupted it (130, 143), if one did. */
  readonly signalExit?: number
}

/** The report's parts of a planned run (every verdict, or why nothing could be judged). */
async function planned(place: RunPlace, request: TestModeRequest, signal: AbortSignal): Promise<Omit<TestReportParts, 'command' | 'cwd' | 'settings' | 'folder'>> {
  const started = Date.now()
  try {
    const outcome = await testSuite(place, request.settings, { reporters: request.reporters, signal })
    return { ...outcome, runs: [outcome.natural, ...outcome.runs] }
  } catch (error) {
    if (error instanceof NothingJudged) return { runs: [error.run], unjudged: error.message, durationMs: Date.now() - started }
    if (error instanceof Interrupted) return { runs: [], interrupted: { during: error.during, neverRan: [NATURAL_RUN] }, durationMs: Date.now() - started }
    throw error
  }
}

/** The report's parts of a replay. */
async function replayed(place: RunPlace, request: TestModeRequest, signal: AbortSignal): Promise<Omit<TestReportParts, 'command' | 'cwd' | 'settings' | 'folder'>> {
  const started = Date.now()
  const replay = { orders: request.settings.order ?? {}, only: request.settings.only ?? null }
  try {
    const outcome = await replayOrder(place, replay, request.reporters, signal)
    return { runs: [outcome.run], tests: outcome.tests, replay, ...outcome.unjudged === undefined ? {} : { unjudged: outcome.unjudged }, durationMs: Date.now() - started }
  } catch (error) {
    if (error instanceof Interrupted) return { runs: [], replay, interrupted: { during: error.during, neverRan: [error.during] }, durationMs: Date.now() - started }
    throw error
  }
}

/** Writes the reporters' files into `staging`, puts it in `folder`'s place, then calls every `onEnd` with the files' final paths. */
async function writeInPlace(reporters: readonly Reporter<TestReport>[], report: TestReport, staging: string, folder: string): Promise<string[]> {
  const rendered = renderFiles(reporters, report)
  const here = rendered.filter(file => resolve(file.dir) === folder)
  await writeFilesAtomically(staging, here)
  await replaceFolder(staging, folder)
  const written = here.map(file => join(folder, file.file))
  for (const dir of [...new Set(rendered.filter(file => !here.includes(file)).map(file => file.dir))]) {
    written.push(...await writeFilesAtomically(dir, rendered.filter(file => file.dir === dir)))
  }
  for (const reporter of reporters) await reporter.onEnd?.(report, written)
  return written
}

/** Runs `loadrace test` as `request` says; see the file's comment. */
export async function runTestMode(request: TestModeRequest): Promise<TestModeResult> {
  const folder = resolve(request.cwd, request.settings.report)
  const staging = await stagingFolder(folder)
  const groups = new ProcessGroups()
  const interruption = watchInterruptions(() => groups.endAll())
  const place: RunPlace = { command: request.command, cwd: request.cwd, folder: join(staging, 'runs'), shownFolder: join(folder, 'runs'), env: request.env, groups }
  try {
    const parts = request.settings.order === undefined ? await planned(place, request, interruption.signal) : await replayed(place, request, interruption.signal)
    const report = testReport({ ...parts, command: request.command, cwd: request.cwd, settings: request.settings, folder: staging })
    const written = await writeInPlace(request.reporters, report, staging, folder)
    const signalExit = interruption.exitCode()
    return { report, written, ...signalExit === undefined ? {} : { signalExit } }
  } catch (error) {
    await discardFolder(staging)
    throw error
  } finally {
    // Nothing a command started outlives an interrupted run, a process that ignores SIGTERM included.
    await groups.finish()
    interruption.dispose()
  }
}

