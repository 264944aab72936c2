/**
 * One vocabulary: every module is named after what it holds (no `types.ts`),
 * and loadrace's own identifiers use one spelling variety, the one its prose
 * uses (minimise, analyse, serialise, normalise, colour). Names loadrace does
 * not own stay as their owners spell them: Node's `serialization` option, the
 * `stream-normalize` variant (a name in scenario files and reports).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = new URL('../../', import.meta.url).pathname

/** The project's own code: what git tracks under harness/, src/, bench/ and test/. */
function codeFiles(): string[] {
  return execFileSync('git', ['ls-files', 'harness', 'src', 'bench', 'test'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n').filter(file => /\.(ts|js|mjs)$/.test(file))
}

/** American spellings of words loadrace's identifiers use, as a word or inside an identifier. */
const AMERICAN = /\w*(minimiz|analyz|serializ|summariz|optimiz|recogniz|organiz|finaliz)\w*/gi
/** Identifiers spelt by their owners, not by loadrace. */
const NOT_OURS = new Set(['serialization'])

/** Each American spelling in `source`, with its line; `stream-normalize` and the like are not matched by the pattern. */
export function americanSpellings(source: string): { line: number, word: string }[] {
  const found: { line: number, word: string }[] = []
  source.split('\n').forEach((text, index) => {
    for (const match of text.matchAll(AMERICAN)) if (!NOT_OURS.has(match[0])) found.push({ line: index + 1, word: match[0] })
  })
  return found
}

describe('one vocabulary', () => {
  it('names no module types.ts: each is named after what it holds', () => {
    expect(codeFiles().filter(file => basename(file) === 'types.ts')).toEqual([])
  })

  it('spells loadrace\'s own identifiers one way (minimise, analyse, serialise)', () => {
    const found = codeFiles().flatMap(file => americanSpellings(readFileSync(`${ROOT}${file}`, 'utf8')).map(({ line, word }) => `${file}:${line} ${word}`))
      .filter(entry => !entry.startsWith('test/architecture/vocabulary.spec.ts:'))
    expect(found).toEqual([])
  })

  it('retires the names that meant two things: a host is a Node runtime and locale, an output a distinct projection', () => {
    const retired = /\b(SutHost|PluginHost|RunRecord|interface Output)\b/
    const found = codeFiles().filter(file => file !== 'test/architecture/vocabulary.spec.ts' && retired.test(readFileSync(`${ROOT}${file}`, 'utf8')))
    expect(found).toEqual([])
  })

  it('gives the unperturbed run of loadrace test its own name (the natural run): "reference" names only the reference target', () => {
    const testMode = codeFiles().filter(file => /^harness\/(suite|preload|report\/test)\/|^harness\/report\/test-report\.ts$/.test(file))
    expect(testMode.length).toBeGreaterThan(10)
    const found = testMode.filter(file => /\breference\b/i.test(readFileSync(`${ROOT}${file}`, 'utf8')))
    expect(found).toEqual([])
  })

  it('retires the names that meant two things in test mode: a list of rows, a record of orders, a status called a hash, cordis\'s EntryTree', () => {
    const retired = /\b(type Rows|interface EntryTree|SuiteReport|countsReference)\b/
    const found = codeFiles().filter(file => file.startsWith('harness/') && retired.test(readFileSync(`${ROOT}${file}`, 'utf8')))
      .concat(codeFiles().filter(file => file.startsWith('harness/suite/') && /\bhashOf\b/.test(readFileSync(`${ROOT}${file}`, 'utf8'))))
    expect(found).toEqual([])
  })

  it('finds an American spelling inside an identifier, and leaves names that are not loadrace\'s alone', () => {
    expect(americanSpellings('const a = minimizeSchedule(x)\nanalyze(y)\n{ serialization: "advanced" }')).toEqual([
      { line: 1, word: 'minimizeSchedule' },
      { line: 2, word: 'analyze' },
    ])
  })
})
