import { readFileSync } from 'node:fs'

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')

/** The rows of the table under README's `### <heading>`, as [first-column name, whole row]. */
export function readmeTable(heading: string): [string, string][] {
  const start = README.indexOf(`\n### ${heading}\n`)
  if (start === -1) throw new Error(`README.md has no "### ${heading}" section`)
  const section = README.slice(start + 1).split(/\n#{2,3} /)[0]!
  return [...section.matchAll(/^\| `([^`]+)` \|.*$/gm)].map(match => [match[1]!, match[0]])
}

/** The names in the first column of the table under README's `### <heading>`, in order. */
export function readmeTableNames(heading: string): string[] {
  return readmeTable(heading).map(([name]) => name)
}
