import { defaultsOf, DOCUMENT_FORMATS, type DocumentFormat, MATRIX_BUDGET, type Settings } from '../sweep/settings.ts'
import type { OptionSpec } from './args.ts'
import { OPTIONS } from './options.ts'

/** The options `matrix` and `diff-targets` share beyond `OPTIONS`: their smaller budget and their two formats. */
export const DOCUMENT_OPTIONS = {
  budget: { ...OPTIONS.budget, default: String(MATRIX_BUDGET), help: 'most interleavings per scenario and variant, a whole number ≥ 1' },
  format: { ...OPTIONS.format, default: DOCUMENT_FORMATS.join(','), help: `comma-separated report formats: ${DOCUMENT_FORMATS.join(', ')}` },
} as const satisfies Record<string, OptionSpec>

/** `OPTIONS.report` with the command's own default folder. */
export function reportOption(command: 'matrix' | 'diff-targets'): OptionSpec {
  return { ...OPTIONS.report, default: defaultsOf(command).report! }
}

/** The document formats of the settings (`resolveSettings` allows no others for `matrix` and `diff-targets`), in the order given. */
export function documentFormatsOf(settings: Pick<Settings, 'format'>): DocumentFormat[] {
  return settings.format.filter((format): format is DocumentFormat => (DOCUMENT_FORMATS as readonly string[]).includes(format))
}
