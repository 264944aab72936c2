import type { DocumentFormat } from '../settings/formats.ts'
import { writeFilesAtomically } from './write.ts'

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
