/**
 * Keeps the glossary of docs/architecture.md true: every file a name is owned
 * by exists (under harness/ unless it says src/), and every declaration it
 * names in parentheses, `(Name)`, is exported by the file it follows.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tableCells } from '../support/markdown.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The rows of the glossary: name and the text of its "owned by" cell. */
function glossaryOf(markdown: string): { name: string, owner: string }[] {
  const section = /\n## Glossary\n([\s\S]*?)(?=\n## |$)/.exec(markdown)?.[1]
  if (section === undefined) throw new Error('docs/architecture.md has no ## Glossary section')
  return section.split('\n').filter(line => line.startsWith('| ')).slice(2).map((line) => {
    const [name, , owner] = tableCells(line)
    return { name: name!, owner: owner! }
  })
}

/** Each file an "owned by" cell names, with the declarations it names after that file. */
function ownersOf(cell: string): { file: string, names: string[] }[] {
  const owners: { file: string, names: string[] }[] = []
  for (const match of cell.matchAll(/`([^`]+)`(?: \(`(\w+)`\))?/g)) {
    const path = match[1]!
    if (!/^[\w./-]+$/.test(path) || !path.includes('/') && !path.includes('.')) continue
    const file = path.startsWith('src/') ? path : `harness/${path}`
    owners.push({ file, names: match[2] === undefined ? [] : [match[2]] })
  }
  return owners
}

describe('the glossary of docs/architecture.md', () => {
  const rows = glossaryOf(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'))

  it('has one row per name', () => {
    expect(rows.length).toBeGreaterThan(20)
    expect(new Set(rows.map(row => row.name)).size).toBe(rows.length)
  })

  for (const { name, owner } of rows) {
    it(`"${name}" is owned by files that exist and declare what it says`, () => {
      const owners = ownersOf(owner)
      expect(owners.length, owner).toBeGreaterThan(0)
      for (const { file, names } of owners) {
        expect(existsSync(join(ROOT, file)), file).toBe(true)
        if (statSync(join(ROOT, file)).isDirectory()) continue
        const source = readFileSync(join(ROOT, file), 'utf8')
        for (const declared of names) expect(source, `${file} exports ${declared}`).toMatch(new RegExp(`export (?:interface|type|class|(?:async )?function|const) ${declared}\\b`))
      }
    })
  }
})
