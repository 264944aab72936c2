import { spawn } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isRecordFile, RECORDS_VARIABLE, SCHEDULE_VARIABLE, VITEST_REACH_FILE, type BootRecord, type RunSchedule, type VitestReach } from '../preload/protocol.js'
import type { ProcessGroups } from '../signals/process-groups.ts'
import { runArgv, type TestCommand } from './command-line.ts'
import { withWrappingConfig } from './vitest-config.ts'
import { readResultFile, type TestResult } from './results.ts'

/**
 * One run of the user's test command: loadrace's preload appended to
 * `NODE_OPTIONS` (so it runs in every Node process the command starts), the
 * run's schedule file and records folder in its environment, the command's
 * output kept in the run's folder, and afterwards its per-test results and
 * what each process did.
 */

/** The preload, beside this room in a checkout and in the built package alike. */
export const PRELOAD = new URL('../preload/preload.js', import.meta.url)

/** What to run: a schedule, and optionally one test alone. */
export interface RunRequest {
  /** A name for the run's folder and for messages: `natural`, `schedule-3`, `rerun-7`. */
  readonly name: string
  readonly schedule: RunSchedule
  /** The full name of the one test to run alone (or of the tests, of one file, to run together without the rest). */
  readonly only?: string | readonly string[]
  /** That test's file, relative to the command's folder: a rerun alone collects only it. */
  readonly file?: string
}

/** What one run of the command did. */
export interface CommandRun {
  readonly name: string
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  /** Per-test results; undefined when the command wrote none. */
  readonly results: readonly TestResult[] | undefined
  /** One record per boot of a loader, in every process the command started. */
  readonly processes: readonly BootRecord[]
  /** For a vitest command: the projects the wrapping config reached (undefined when vitest never loaded it). */
  readonly vitest?: VitestReach
  /** The command's stdout and stderr, interleaved as written. */
  readonly log: string
  readonly durationMs: number
  /** The command could not be started (`ENOENT`: not found). */
  readonly startError?: string
}

/** Where the run's command, environment and paths are fixed. */
export interface RunPlace {
  readonly command: TestCommand
  /** The directory the command runs in. */
  readonly cwd: string
  /** The folder every run's own folder is made in. */
  readonly folder: string
  /** Where `folder` will be once the report is in place (it is written beside it first); default `folder`. */
  readonly shownFolder?: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** Where each run's command is tracked from its start to its end, so that an interruption can end every one still running (reruns alone may run side by side). */
  readonly groups?: ProcessGroups
}

/** `NODE_OPTIONS` with loadrace's preload appended to what the user had. */
export function nodeOptionsWithPreload(existing: string | undefined): string {
  const preload = `--import=${pathToFileURL(PRELOAD.pathname).href}`
  return existing === undefined || existing.trim() === '' ? preload : `${existing} ${preload}`
}

/** Boot records by process, thread and boot number. */
function byBoot(a: string, b: string): number {
  const numbers = (name: string) => name.match(/\d+/g)!.map(Number)
  const [x, y] = [numbers(a), numbers(b)]
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!
}

/** What the wrapping vitest config reached, when the command is vitest's. */
function readReach(folder: string): VitestReach | undefined {
  const file = join(folder, VITEST_REACH_FILE)
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as VitestReach : undefined
}

function readRecords(folder: string): BootRecord[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder).filter(isRecordFile).sort(byBoot)
    .map(file => JSON.parse(readFileSync(join(folder, file), 'utf8')) as BootRecord)
}

/** Where a file of the runs' folder will be once the report is in place: what messages and the report show. */
export function shownPath(place: Pick<RunPlace, 'folder' | 'shownFolder'>, path: string): string {
  return place.shownFolder === undefined ? path : join(place.shownFolder, relative(place.folder, path))
}

/** Runs the command once as `request` says and collects what it did. */
export async function runCommand(place: RunPlace, request: RunRequest): Promise<CommandRun> {
  const folder = join(place.folder, request.name)
  const records = join(folder, 'processes')
  mkdirSync(records, { recursive: true })
  const scheduleFile = join(folder, 'schedule.json')
  writeFileSync(scheduleFile, `${JSON.stringify(request.schedule, null, 2)}\n`)
  const source = place.command.source
  const resultFile = source.kind === 'junit' ? resolve(place.cwd, source.file) : join(folder, source.kind === 'vitest' ? 'results.json' : 'results.xml')
  if (source.kind === 'junit' && existsSync(resultFile)) writeFileSync(resultFile, '')
  const given = runArgv(place.command, resultFile, request.only, request.file)
  const argv = source.kind === 'vitest' ? withWrappingConfig(given, place.cwd, place.folder) : given
  const log = join(folder, 'output.log')
  const output = createWriteStream(log)
  const started = Date.now()
  const env = {
    ...place.env,
    NODE_OPTIONS: nodeOptionsWithPreload(place.env.NODE_OPTIONS),
    [SCHEDULE_VARIABLE]: scheduleFile,
    [RECORDS_VARIABLE]: records,
  }
  const child = spawn(argv[0] as string, argv.slice(1), { cwd: place.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  place.groups?.track(child, 'started')
  const outcome = await new Promise<{ code: number | null, signal: NodeJS.Signals | null, error?: string }>((resolve) => {
    child.stdout.pipe(output, { end: false })
    child.stderr.pipe(output, { end: false })
    child.on('error', error => resolve({ code: null, signal: null, error: (error as NodeJS.ErrnoException).code ?? error.message }))
    child.on('close', (code, signal) => resolve({ code, signal }))
  })
  place.groups?.track(child, 'ended')
  await new Promise<void>(resolve => output.end(() => resolve()))
  const exitOnly = source.kind === 'exit-code' || outcome.error !== undefined
  const results = exitOnly
    ? (outcome.error !== undefined ? undefined : [{ file: '', name: place.command.argv.join(' '), status: outcome.code === 0 ? 'passed' as const : 'failed' as const }])
    : readResultFile(resultFile, source.kind === 'vitest' ? 'vitest' : 'junit', place.cwd)
  return {
    name: request.name,
    exitCode: outcome.code,
    signal: outcome.signal,
    results: results !== undefined && results.length === 0 && source.kind === 'junit' ? undefined : results,
    processes: readRecords(records),
    ...source.kind === 'vitest' ? { vitest: readReach(records) } : {},
    log,
    durationMs: Date.now() - started,
    ...outcome.error !== undefined ? { startError: outcome.error } : {},
  }
}
