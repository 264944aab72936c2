/**
 * Divergences a person can read on real bytes: the plugins whose
 * contributions moved beside the swapped pair, a reordering of sections as
 * an order difference, the first differing position with context, and a
 * section-level diff of the system prompt.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { kindOf } from '../../../harness/oracle/compare.ts'
import { locateDifference, readable } from '../../../harness/oracle/readable.ts'
import { movedContributions } from '../../../harness/oracle/moved.ts'
import type { Contributions } from '../../../harness/runtime/contributions.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/** A plugin registering one prompt section of order 115 after its service dependency appears. */
function sectionPlugin(section: string): string {
  return `export const name = '${section}-guide'
export const inject = ['systemPrompt']
export function apply(ctx) {
  ctx.systemPrompt.section({ name: 'tool:${section}', order: 115, text: 'Use the ${section} tool for ${section} work.\\n\\nIt has two paragraphs.' })
}
`
}

describe('a race between two prompt sections of equal order (reference target)', () => {
  it('is an order difference in the header, naming the plugins whose sections moved, with a section diff and the first differing line', async () => {
    const dir = await fixtureDir()
    await dir.write('workflow.mjs', sectionPlugin('workflow'))
    await dir.write('cordis.mjs', sectionPlugin('cordis'))
    const file = await dir.write('s.yml', `app: none
config: { persona: 'You are terse.' }
plugins:
  - { id: provider, tools: [read] }
  - { id: tool-workflow, module: ./workflow.mjs }
  - { id: tool-cordis, module: ./cordis.mjs }
expect: { outcome: completed, deterministic: false }
`)
    const report = await sweepScenario(await loadScenario(file), { strategy: 'exhaustive', budget: 720, seed: '0', workers: 1 }, { runner: inProcessRunner() })
    expect(report.verdict).toBe('divergent')
    const divergence = report.divergence!
    expect(divergence.part).toBe('header')
    expect(divergence.kind).toBe('order')
    expect(divergence.blame.slice().sort()).toEqual(['tool-cordis', 'tool-workflow'])
    expect(divergence.moved).toEqual([
      { kind: 'section', name: 'tool:workflow', owner: 'tool-workflow' },
      { kind: 'section', name: 'tool:cordis', owner: 'tool-cordis' },
    ])
    expect(divergence.sections).toContain('-[115] tool:workflow (tool-workflow)\n [115] tool:cordis (tool-cordis)\n+[115] tool:workflow (tool-workflow)')
    expect(divergence.firstDifference).toMatch(/^header\.system, line \d+, column 9:\n/)
    expect(divergence.firstDifference).toContain('- ')
    expect(divergence.firstDifference).toContain('Use the workflow tool for workflow work.')
    expect(divergence.firstDifference).toContain('Use the cordis tool for cordis work.')
    // The diff is line by line: no line holds the whole prompt.
    expect(divergence.diff.split('\n').every(line => line.length < 120)).toBe(true)
    expect(divergence.diff).toMatch(/^-\s+Use the workflow tool for workflow work\.$/m)
  })
})

describe('kindOf: texts of several paragraphs', () => {
  it('calls reordered paragraphs an order difference, and changed ones content', () => {
    const a = { system: 'intro\n\nalpha section\n\nbeta section' }
    expect(kindOf(a, { system: 'intro\n\nbeta section\n\nalpha section' })).toBe('order')
    expect(kindOf(a, { system: 'intro\n\nbeta section\n\nalpha section, changed' })).toBe('content')
    expect(kindOf(['x', 'y'], ['y', 'x'])).toBe('order')
  })
})

describe('readable: texts written out line by line', () => {
  it('keeps key order and writes multi-line strings as indented blocks', () => {
    expect(readable({ b: 1, a: { text: 'one\ntwo', list: ['x'] }, empty: [] })).toBe([
      '{',
      '  "b": 1',
      '  "a": {',
      '    "text": |',
      '      one',
      '      two',
      '    "list": [',
      '      "x"',
      '    ]',
      '  }',
      '  "empty": []',
      '}',
      '',
    ].join('\n'))
  })

  it('locates the first difference by path, line and column, with context', () => {
    const before = { system: ['l1', 'l2', 'l3', 'l4 alpha', 'l5', 'l6'].join('\n') }
    const after = { system: ['l1', 'l2', 'l3', 'l4 beta', 'l5', 'l6'].join('\n') }
    const found = locateDifference(before, after)
    expect(found).toMatchObject({ path: 'system', line: 4, column: 4 })
    expect(found?.context.split('\n')).toEqual([
      '      1 | l1', '      2 | l2', '      3 | l3', '-     4 | l4 alpha', '+     4 | l4 beta', '      5 | l5', '      6 | l6',
    ])
    expect(locateDifference({ tools: [{ name: 'a' }] }, { tools: [{ name: 'b' }] })).toMatchObject({ path: 'tools[0].name', column: 1 })
    const long = locateDifference(`intro\n${'x'.repeat(300)}a${'y'.repeat(300)}`, `intro\n${'x'.repeat(300)}b${'y'.repeat(300)}`)
    expect(long).toMatchObject({ line: 2, column: 301 })
    // A paragraph-long line is cut around the difference.
    expect(long?.context.split('\n')[1]).toBe(`-     2 | …${'x'.repeat(40)}a${'y'.repeat(119)}…`)
    expect(locateDifference({ a: 1 }, { a: 1 })).toBeUndefined()
  })
})

describe('movedContributions', () => {
  const of = (sections: string[], tools: string[]): Contributions => ({
    sections: sections.map(name => ({ kind: 'section', name, owner: `owner-of-${name}` })),
    tools: tools.map(name => ({ kind: 'tool', name, owner: `owner-of-${name}` })),
  })

  it('names every contribution whose relative order to another changed, with its owner', () => {
    expect(movedContributions(of(['p', 'w', 'c', 'r'], ['a', 'b']), of(['p', 'c', 'w', 'r'], ['a', 'b']))).toEqual([
      { kind: 'section', name: 'w', owner: 'owner-of-w' },
      { kind: 'section', name: 'c', owner: 'owner-of-c' },
    ])
    expect(movedContributions(of(['p'], ['a', 'b']), of(['p'], ['b', 'a'])).map(item => item.name)).toEqual(['a', 'b'])
    expect(movedContributions(of(['p'], ['a']), of(['p'], ['a']))).toEqual([])
  })
})
