import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The checkout's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The source files (`.ts`, `.js`, no declarations) under `dir`, relative to the root. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter(entry => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map(entry => relative(ROOT, join(entry.parentPath, entry.name)))
}

/** The relative module specifiers a source file names: static imports and re-exports, `import()` and `new URL(…, import.meta.url)`. */
export function specifiersOf(source: string): string[] {
  const found: string[] = []
  const patterns = [
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    /(?:^|[\s;])import\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
    /\bnew URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ]
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!)
  return found
}
