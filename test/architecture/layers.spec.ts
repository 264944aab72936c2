import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, sourceFiles, specifiersOf } from '../support/source-files.ts'

/**
 * Keeps docs/architecture.md true: its `layers` block lists the rooms of
 * harness/ and src/ from the top layer down (rooms on one line share a layer),
 * and every import in those two trees — `import type` included — must point
 * to a room on a lower line, or stay in its own room without a circle.
 */

/** The rooms of the layers block, one array per layer, top layer first. */
export function layersOf(markdown: string): string[][] {
  const block = /```text layers\n([\s\S]*?)```/.exec(markdown)?.[1]
  if (block === undefined) throw new Error('docs/architecture.md has no ```text layers block')
  return block.split('\n')
    .map(line => line.replace(/#.*$/, '').trim())
    .filter(line => line !== '')
    .map(line => line.split(/\s+/))
}

/** The room a file lives in: the longest room path of the block that is the file or a folder holding it. */
function roomOf(file: string, rooms: readonly string[]): string | undefined {
  return rooms.filter(room => file === room || file.startsWith(`${room}/`)).sort((a, b) => b.length - a.length)[0]
}

interface Edge { from: string, to: string }

function edges(): Edge[] {
  const files = [...sourceFiles('harness'), ...sourceFiles('src')]
  return files.flatMap(file => specifiersOf(readFileSync(join(ROOT, file), 'utf8'))
    .map(specifier => ({ from: file, to: normalize(join(dirname(file), specifier)) })))
}

/** Strongly connected components of more than one file (or a file importing itself). */
function circles(all: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>()
  for (const { from, to } of all) next.set(from, [...next.get(from) ?? [], to])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let counter = 0
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (next.get(node) ?? []).includes(node)) found.push(component.sort())
  }
  for (const node of next.keys()) if (!index.has(node)) visit(node)
  return found
}

const layers = layersOf(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))
const rooms = layers.flat()
const depth = new Map(layers.flatMap((line, at) => line.map(room => [room, at] as const)))

describe('the house of docs/architecture.md', () => {
  const all = edges()

  it('puts every source file of harness/ and src/ in a room of the layers block', () => {
    const homeless = [...sourceFiles('harness'), ...sourceFiles('src')].filter(file => roomOf(file, rooms) === undefined)
    expect(homeless).toEqual([])
  })

  it('has every import point down a layer, or stay in its room', () => {
    const upward = all.flatMap(({ from, to }) => {
      const a = roomOf(from, rooms)
      const b = roomOf(to, rooms)
      if (a === undefined || b === undefined || a === b) return []
      return depth.get(b)! > depth.get(a)! ? [] : [`${from} → ${to} (${a} may not import ${b})`]
    })
    expect(upward).toEqual([])
  })

  it('lets only harness/targets/ reach the reference in src/, and nothing in src/ reach harness/', () => {
    const crossing = all.filter(({ from, to }) =>
      (from.startsWith('harness/') && to.startsWith('src/') && !from.startsWith('harness/targets/'))
      || (from.startsWith('src/') && to.startsWith('harness/')))
    expect(crossing.map(({ from, to }) => `${from} → ${to}`)).toEqual([])
  })

  it('has no import circle among files', () => {
    expect(circles(all)).toEqual([])
  })
})

/** The most rooms the command may import: it parses and prints, and the rooms that own the work do it. */
const CLI_ROOMS_AT_MOST = 9

/** The rooms other than its own that the files of `room` import, `import type` included, sorted. */
function roomsImportedBy(room: string, all: readonly Edge[]): string[] {
  const imported = all
    .filter(({ from }) => roomOf(from, rooms) === room)
    .map(({ to }) => roomOf(to, rooms))
    .filter((to): to is string => to !== undefined && to !== room)
  return [...new Set(imported)].sort()
}

describe('a thin command', () => {
  it(`has harness/cli/ import at most ${CLI_ROOMS_AT_MOST} other rooms`, () => {
    const imported = roomsImportedBy('harness/cli', edges())
    expect(imported.length, `harness/cli imports ${imported.join(', ')}`).toBeLessThanOrEqual(CLI_ROOMS_AT_MOST)
  })
})

describe('the checks themselves', () => {
  it('find an upward import, a circle and every import form', () => {
    expect(specifiersOf(`import type { A } from './a.ts'\nexport { b } from "../b.ts"\nimport './c.js'\nawait import('./d.ts')\nnew URL('./e.js', import.meta.url)\n`))
      .toEqual(['./a.ts', '../b.ts', './c.js', './d.ts', './e.js'])
    expect(circles([{ from: 'x', to: 'y' }, { from: 'y', to: 'x' }, { from: 'y', to: 'z' }])).toEqual([['x', 'y']])
    expect(layersOf('```text layers\nharness/cli   # the command\nharness/a harness/b\n```')).toEqual([['harness/cli'], ['harness/a', 'harness/b']])
    expect(roomsImportedBy('harness/cli', [
      { from: 'harness/cli/a.ts', to: 'harness/sweep/b.ts' }, { from: 'harness/cli/a.ts', to: 'harness/cli/c.ts' },
      { from: 'harness/cli/c.ts', to: 'harness/token.ts' }, { from: 'harness/cli/c.ts', to: 'harness/sweep/d.ts' }, { from: 'harness/sweep/b.ts', to: 'harness/runners/e.ts' },
    ])).toEqual(['harness/sweep', 'harness/token.ts'])
  })
})
