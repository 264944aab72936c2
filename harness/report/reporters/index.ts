import type { Reporter, Sink } from '../reporter.ts'
import type { Style } from '../style.ts'
import type { ReportFormat } from '../../settings/formats.ts'
import { githubAnnotationsReporter } from './github-annotations.ts'
import { jsonReporter } from './json-stdout.ts'
import { reportFileReporter } from './report-file.ts'
import { stepSummaryPath, stepSummaryReporter } from './step-summary.ts'
import { terminalReporter } from './terminal.ts'

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

/** Every reporter loadrace has, by name: how to build it. */
export const REPORTERS = {
  'terminal': setup => terminalReporter(human(setup), setup),
  'json': setup => reportFileReporter('json', setup.dir),
  'md': setup => reportFileReporter('md', setup.dir),
  'junit': setup => reportFileReporter('junit', setup.dir),
  'html': setup => reportFileReporter('html', setup.dir),
  'step-summary': setup => stepSummaryReporter(setup.env.GITHUB_STEP_SUMMARY ?? ''),
  'github-annotations': setup => githubAnnotationsReporter(human(setup)),
  'json-stdout': setup => jsonReporter(setup.stdout),
} as const satisfies Record<string, (setup: ReporterSetup) => Reporter>

export type ReporterName = keyof typeof REPORTERS

/**
 * The reporters a run has, in the order their hooks are called: the report
 * files of `formats`; the job summary when `GITHUB_STEP_SUMMARY` names a
 * file and Markdown is written; the terminal lines; an annotation per failed
 * scenario under GitHub Actions (`GITHUB_ACTIONS=true`); report.json on
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

/** The reporters `reporterNames` picks, built. */
export function reportersFor(setup: ReporterSetup): Reporter[] {
  return reporterNames(setup).map(name => REPORTERS[name](setup))
}
