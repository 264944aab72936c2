import { DOCUMENT_FORMATS, parseDocumentFormats, type DocumentFormat } from '../report/documents.ts'
import { MATRIX_BUDGET } from '../matrix/budget.ts'
import type { OptionSpec, ParsedArgs } from './args.ts'
import { valueOf } from './args.ts'
import { OPTIONS, readExplore, type ExploreSettings } from './options.ts'
import { nonEmpty, parsedBy } from './values.ts'

/** The options `matrix` and `diff-targets` share beyond `OPTIONS`: their smaller budget and their two formats. */
export const DOCUMENT_OPTIONS = {
  budget: { ...OPTIONS.budget, default: String(MATRIX_BUDGET), help: 'most interleavings per scenario and variant, a whole number ≥ 1' },
  format: { name: 'format', value: 'LIST', default: DOCUMENT_FORMATS.join(','), help: `comma-separated report formats: ${DOCUMENT_FORMATS.join(', ')}` },
} as const satisfies Record<string, OptionSpec>

/** `OPTIONS.report` with another default folder. */
export function reportOption(defaultDir: string): OptionSpec {
  return { ...OPTIONS.report, default: defaultDir }
}

/** `--strategy --budget --seed --depth --strength`, with `MATRIX_BUDGET` as the default budget. */
export function readComparisonExplore(args: ParsedArgs): ExploreSettings {
  const explore = readExplore(args)
  return valueOf(args, OPTIONS.budget.name) === undefined ? { ...explore, budget: MATRIX_BUDGET } : explore
}

/** `--report --format` for the JSON and Markdown documents; `defaultDir` when `--report` is not given. */
export function readDocumentOutput(args: ParsedArgs, defaultDir: string): { dir: string, formats: DocumentFormat[] } {
  const dir = valueOf(args, OPTIONS.report.name)
  const format = valueOf(args, DOCUMENT_OPTIONS.format.name)
  return {
    dir: dir === undefined ? defaultDir : nonEmpty(OPTIONS.report.name, dir),
    formats: format === undefined ? [...DOCUMENT_FORMATS] : parsedBy(DOCUMENT_OPTIONS.format.name, format, parseDocumentFormats),
  }
}
