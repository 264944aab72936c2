import type { ReportKind } from '../kind.ts'
import type { Reporter, Sink } from '../reporter.ts'
import type { Style } from '../style.ts'
import type { ReportFormat } from '../../settings/formats.ts'
import { jsonReporter } from './json-stdout.ts'
import { reportFileReporter } from './report-file.ts'
import { stepSummaryPath, stepSummaryReporter } from './step-summary.ts'

/** What stdout gets (`--reporter`): the scenario lines and summary, or report.json. */
export const STDOUT_REPORTERS = ['default', 'json'] as const
export type StdoutReporter = typeof STDOUT_REPORTERS[number]

/** Everything a reporter of the map may be built from. */
export interface ReporterSetup {
  stdout: Sink
  stderr: Sink
  env: Readonly<Record<string, string | undefined>>
  style: Style
  /** `--reporter`. */
  reporter: StdoutReporter
  /** `--show-output`. */
  showOutput: boolean
  /** The report folder and the formats written there (`--report`, `--format`). */
  dir: string
  formats: readonly ReportFormat[]
}

/** The lines people read go to stdout, or to stderr when stdout carries report.json alone. */
function human(setup: ReporterSetup): Sink {
  return setup.reporter === 'json' ? setup.stderr : setup.stdout
}

/** How a reporter of the map is built for a report of some kind. */
type Build = <R>(setup: ReporterSetup, kind: ReportKind<R>) => Reporter<R>

/** The names of the reporters of the map. */
export type ReporterName = 'terminal' | 'json' | 'md' | 'junit' | 'html' | 'step-summary' | 'github-annotations' | 'json-stdout'

/**
 * Every reporter loadrace has, by name: how to build it for a report of a
 * given kind (a sweep's, a test run's), whose renderers, terminal lines and
 * annotations the kind supplies.
 */
export const REPORTERS: Readonly<Record<ReporterName, Build>> = {
  'terminal': (setup, kind) => kind.terminal(human(setup), setup.stderr, setup),
  'json': (setup, kind) => reportFileReporter(kind, 'json', setup.dir),
  'md': (setup, kind) => reportFileReporter(kind, 'md', setup.dir),
  'junit': (setup, kind) => reportFileReporter(kind, 'junit', setup.dir),
  'html': (setup, kind) => reportFileReporter(kind, 'html', setup.dir),
  'step-summary': (setup, kind) => stepSummaryReporter(kind, setup.env.GITHUB_STEP_SUMMARY ?? ''),
  'github-annotations': (setup, kind) => kind.annotations(human(setup)),
  'json-stdout': (setup, kind) => jsonReporter(kind, setup.stdout),
}

/**
 * The reporters a run has, in the order their hooks are called: the report
 * files of `formats`; the job summary when `GITHUB_STEP_SUMMARY` names a
 * file and Markdown is written; the terminal lines; an annotation per failed
 * scenario or test under GitHub Actions (`GITHUB_ACTIONS=true`); report.json on
 * stdout under `--reporter json`.
 */
export function reporterNames(setup: ReporterSetup): ReporterName[] {
  return [
    ...new Set(setup.formats),
    ...stepSummaryPath(setup.env, setup.formats) === undefined ? [] : ['step-summary' as const],
    'terminal',
    ...setup.env.GITHUB_ACTIONS === 'true' ? ['github-annotations' as const] : [],
    ...setup.reporter === 'json' ? ['json-stdout' as const] : [],
  ]
}

/** The reporters `reporterNames` picks, built for reports of `kind`. */
export function reportersFor<R>(setup: ReporterSetup, kind: ReportKind<R>): Reporter<R>[] {
  return reporterNames(setup).map(name => REPORTERS[name](setup, kind))
}
