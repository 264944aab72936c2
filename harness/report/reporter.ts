import type { Scenario } from '../scenario/scenario.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { TestFinding } from '../verdict/test-verdict.ts'
import type { StopReason } from './summary.ts'
import type { Report } from './sweep-report.ts'
import { writeFilesAtomically } from './write.ts'

/** Somewhere a reporter writes text: stdout or stderr. */
export interface Sink {
  write(text: string): unknown
}

/** A report file a reporter contributes: the folder, the file's name there, and its content for a report. */
export interface ReportFile<R = Report> {
  dir: string
  name: string
  render: (report: R) => string
}

/** What a sweep tells its reporters as it goes. */
export interface SweepHooks {
  /** The run starts; these scenarios (by name, in order) are to be judged. */
  onStart?(names: readonly string[]): void
  /** A scenario starts, before its first interleaving runs. */
  onScenarioStart?(scenario: Scenario): void
  /** `explored` of `planned` interleavings of a scenario have run. */
  onProgress?(scenario: Scenario, explored: number, planned: number): void
  /** A scenario is judged: its report entry. */
  onScenarioJudged?(entry: ScenarioReport): void
}

/** One run of the user's command under `loadrace test` starts: the natural run is run 0 of `total`. */
export interface CommandRunStart {
  readonly name: string
  readonly index: number
  readonly total: number
}

/** One run of the user's command ended. */
export interface CommandRunEnd extends CommandRunStart {
  readonly durationMs: number
  readonly exitCode: number | null
  readonly signal: string | null
  /** Tests it reported; undefined when it wrote no results. */
  readonly tests: number | undefined
  /** Processes that booted a cordis loader. */
  readonly processes: number
}

/** A rerun alone starts: which test, why, and how far its decision is. */
export interface RerunStart {
  /** The test, as `file › name`. */
  readonly test: string
  /** `passing` or `failing`: confirming that side; `narrowing`: looking for the pair whose swap flips it. */
  readonly purpose: 'passing' | 'failing' | 'narrowing'
  /** The run whose side it confirms (for `narrowing`, the failing side's). */
  readonly run: string
  /** This rerun's place among those of its purpose (1-based), and how many at most there are (undefined: not known ahead). */
  readonly attempt: number
  readonly of: number | undefined
  /** Reruns alone started so far, this one included. */
  readonly count: number
  /** Tests of the same file and the same sides that this rerun runs too, their statuses kept for their own decisions (`suite/shared-reruns.ts`). */
  readonly together?: readonly string[]
}

/** What `loadrace test` tells its reporters as it goes. */
export interface TestHooks {
  /** A run of the command starts. */
  onRunStart?(run: CommandRunStart): void
  /** A run of the command ended. */
  onRunEnd?(run: CommandRunEnd): void
  /** A test is rerun alone. */
  onRerun?(rerun: RerunStart): void
  /** A test is judged. */
  onTestJudged?(finding: TestFinding): void
}

/**
 * What a run says as it goes, to whoever listens: the terminal lines, a
 * report file, an annotation, a job summary. A sweep and `loadrace test`
 * call each hook on every reporter they are given, in the order given, and
 * know nothing of any one of them; a reporter implements only the hooks it
 * needs. `R` is the report it ends with: a sweep's, or a test run's.
 */
export interface Reporter<R = Report> extends SweepHooks, TestHooks {
  /**
   * The file this reporter writes into the report folder. It is rendered, then
   * written together with every other reporter's file (atomically) before
   * any `onEnd`, so a rendering error writes none of them.
   */
  readonly file?: ReportFile<R>
  /** The run stops before its end, or is cut short by a signal: why. */
  onInterrupted?(reason: StopReason): void
  /** The report is complete (as far as it got) and every report file is written: `written`, their paths. */
  onEnd?(report: R, written: readonly string[]): void | Promise<void>
}

/** A reporter of any kind of report, as a run that only calls its hooks as it goes sees it. */
export type AnyReporter = Reporter<never>

/** Every reporter's file, rendered (nothing is written before everything is rendered). */
export function renderFiles<R>(reporters: readonly Reporter<R>[], report: R): { dir: string, file: string, content: string }[] {
  const files = reporters.flatMap(reporter => reporter.file === undefined ? [] : [reporter.file])
  const unique = [...new Map(files.map(file => [`${file.dir}\0${file.name}`, file])).values()]
  return unique.map(file => ({ dir: file.dir, file: file.name, content: file.render(report) }))
}

/**
 * Ends a run for its reporters: renders every reporter's file, writes them
 * together into their folder, then calls each `onEnd` in order with the
 * paths written. Resolves to those paths.
 */
export async function endReport<R>(reporters: readonly Reporter<R>[], report: R): Promise<string[]> {
  const rendered = renderFiles(reporters, report)
  const written: string[] = []
  for (const dir of [...new Set(rendered.map(file => file.dir))]) {
    written.push(...await writeFilesAtomically(dir, rendered.filter(file => file.dir === dir)))
  }
  for (const reporter of reporters) await reporter.onEnd?.(report, written)
  return written
}

/**
 * Tells reporters about a report that is already whole (the merge of a
 * sweep's shards): its scenarios in order, as a sweep would as it judged
 * them, then its end. Resolves to the report files written.
 */
export async function reportWhole(reporters: readonly Reporter[], report: Report): Promise<string[]> {
  const names = report.scenarios.map(entry => entry.name)
  for (const reporter of reporters) reporter.onStart?.(names)
  for (const entry of report.scenarios) for (const reporter of reporters) reporter.onScenarioJudged?.(entry)
  return endReport(reporters, report)
}

/**
 * Tells reporters about a test run's report that is already whole (the
 * merge of its shards): each test in order, as a run would as it judged
 * them, then its end. Resolves to the report files written.
 */
export async function reportTestWhole<R extends { tests: readonly TestFinding[] }>(reporters: readonly Reporter<R>[], report: R): Promise<string[]> {
  for (const test of report.tests) for (const reporter of reporters) reporter.onTestJudged?.(test)
  return endReport(reporters, report)
}
