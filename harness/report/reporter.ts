import type { Scenario } from '../scenario/scenario.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { StopReason } from './summary.ts'
import type { Report } from './sweep-report.ts'
import { writeFilesAtomically } from './write.ts'

/** Somewhere a reporter writes text: stdout or stderr. */
export interface Sink {
  write(text: string): unknown
}

/** A report file a reporter contributes: the folder, the file's name there, and its content for a report. */
export interface ReportFile {
  dir: string
  name: string
  render: (report: Report) => string
}

/**
 * What a sweep says as it goes, to whoever listens: the terminal lines, a
 * report file, an annotation, a job summary. The sweep calls each hook on
 * every reporter it is given, in the order given, and knows nothing of any
 * one of them; a reporter implements only the hooks it needs.
 */
export interface Reporter {
  /**
   * The file this reporter writes into the report folder. It is rendered, then
   * written together with every other reporter's file (atomically) before
   * any `onEnd`, so a rendering error writes none of them.
   */
  readonly file?: ReportFile
  /** The run starts; these scenarios (by name, in order) are to be judged. */
  onStart?(names: readonly string[]): void
  /** A scenario starts, before its first interleaving runs. */
  onScenarioStart?(scenario: Scenario): void
  /** `explored` of `planned` interleavings of a scenario have run. */
  onProgress?(scenario: Scenario, explored: number, planned: number): void
  /** A scenario is judged: its report entry. */
  onScenarioJudged?(entry: ScenarioReport): void
  /** The run stops before its last scenario, or is cut short by a signal: why. */
  onInterrupted?(reason: StopReason): void
  /** The report is complete (as far as it got) and every report file is written: `written`, their paths. */
  onEnd?(report: Report, written: readonly string[]): void | Promise<void>
}

/**
 * Ends a run for its reporters: renders every reporter's file, writes them
 * together into their folder, then calls each `onEnd` in order with the
 * paths written. Resolves to those paths.
 */
export async function endReport(reporters: readonly Reporter[], report: Report): Promise<string[]> {
  const files = reporters.flatMap(reporter => reporter.file === undefined ? [] : [reporter.file])
  const unique = [...new Map(files.map(file => [`${file.dir}\0${file.name}`, file])).values()]
  // Everything is rendered before anything is written.
  const rendered = unique.map(file => ({ dir: file.dir, file: file.name, content: file.render(report) }))
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
