import { parseChoiceList } from './choice-list.ts'

/** A report format that a sweep can write. */
export type ReportFormat = 'json' | 'md' | 'junit' | 'html'

/** Every format, in the order they are documented and written. */
export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'md', 'junit', 'html']

/**
 * The two formats the matrix and the target comparison write: the JSON
 * contract and a Markdown page. (The sweep's JUnit and HTML renderings are
 * about scenarios, not cells.)
 */
export const DOCUMENT_FORMATS = ['json', 'md'] as const satisfies readonly ReportFormat[]

export type DocumentFormat = typeof DOCUMENT_FORMATS[number]

/**
 * Parses a comma-separated format list such as `json,md`. Blanks around
 * entries are ignored and repeats are kept once; an empty list or an unknown
 * entry throws an error naming it and the allowed formats.
 */
export function parseFormats(text: string): ReportFormat[] {
  return parseChoiceList(text, REPORT_FORMATS, 'report format')
}

/** Parses `json,md`-style lists (see `parseChoiceList`). */
export function parseDocumentFormats(text: string): DocumentFormat[] {
  return parseChoiceList(text, DOCUMENT_FORMATS, 'report format')
}
