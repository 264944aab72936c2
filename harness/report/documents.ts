import { parseChoiceList } from './choice-list.ts'
import { writeFilesAtomically } from './write.ts'

/**
 * The two formats the matrix and the target comparison write: the JSON
 * contract and a Markdown page. (The sweep's JUnit and HTML renderings are
 * about scenarios, not cells.)
 */
export const DOCUMENT_FORMATS = ['json', 'md'] as const

export type DocumentFormat = typeof DOCUMENT_FORMATS[number]

/** Parses `json,md`-style lists (see `parseChoiceList`). */
export function parseDocumentFormats(text: string): DocumentFormat[] {
  return parseChoiceList(text, DOCUMENT_FORMATS, 'report format')
}

/**
 * Renders every requested format, then writes them atomically into `dir` as
 * `<base>.json` / `<base>.md`; returns the paths written. A rendering error
 * writes nothing.
 */
export async function writeDocuments(
  dir: string,
  base: string,
  render: Readonly<Record<DocumentFormat, () => string>>,
  formats: readonly DocumentFormat[],
): Promise<string[]> {
  const files = [...new Set(formats)].map(format => ({ file: `${base}.${format}`, content: render[format]() }))
  return writeFilesAtomically(dir, files)
}
