/**
 * Small functions where the work of a command is decided, and a thin
 * command: no function of `harness/suite/` is longer than 60 lines (test
 * mode's running, judging, rerunning and blaming each in a function of its
 * own), and `harness/cli/` watches no signal and ends no process (that is
 * `harness/signals/`'s).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = new URL('../../', import.meta.url).pathname
const MOST_LINES = 60

/** Every function in `source` (declarations, methods, arrows, expressions) with its name and length in lines. */
export function functionLengths(source: string, file = 'file.ts'): { name: string, lines: number }[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS)
  const found: { name: string, lines: number }[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = parsed.getLineAndCharacterOfPosition(node.getStart(parsed)).line
      const end = parsed.getLineAndCharacterOfPosition(node.getEnd()).line
      const named = (node as { name?: ts.Node }).name
      const holder = ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) ? node.parent.name.getText(parsed) : undefined
      found.push({ name: named?.getText(parsed) ?? holder ?? `(anonymous, line ${start + 1})`, lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(parsed)
  return found
}

function filesOf(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).filter(file => /\.(ts|js)$/.test(file)).map(file => join(folder, file))
}

describe('small functions and a thin command', () => {
  it(`has no function in harness/suite/ longer than ${MOST_LINES} lines`, () => {
    const long = filesOf('harness/suite').flatMap(file => functionLengths(readFileSync(join(ROOT, file), 'utf8'), file)
      .filter(fn => fn.lines > MOST_LINES).map(fn => `${file} ${fn.name}: ${fn.lines} lines`))
    expect(long).toEqual([])
  })

  it('watches no signal and ends no process in harness/cli/', () => {
    const signalling = /process\.(on|once|off|addListener)\(\s*['"]SIG|process\.kill\(/
    expect(filesOf('harness/cli').filter(file => signalling.test(readFileSync(join(ROOT, file), 'utf8')))).toEqual([])
  })

  it('measures every kind of function, and sees signal handling where it is', () => {
    const lengths = functionLengths('function a() {\n  return 1\n}\nconst b = () => {\n\n}\nclass C { m() { return 2 } }\n')
    expect(lengths).toEqual([{ name: 'a', lines: 3 }, { name: 'b', lines: 3 }, { name: 'm', lines: 1 }])
    expect(/process\.(on|once|off|addListener)\(\s*['"]SIG|process\.kill\(/.test(readFileSync(join(ROOT, 'harness/signals/interrupt.ts'), 'utf8').replace('process.on(name', "process.on('SIGINT'"))).toBe(true)
  })
})
