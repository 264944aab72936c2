import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

/**
 * The folders of src/, lowest first. A file imports (type-only imports
 * included) only from its own folder or a folder before it; the root files
 * (composition, service entries, the public surface) import anything.
 */
const LAYERS = ['runtime', 'llm', 'session', 'system-prompt', 'tools', 'agent', 'app', 'variants']

/** Every relative import of every src/ file (`import`, `import type`, `export … from`), as paths relative to src/. */
function importEdges(): Array<[from: string, to: string]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(file => file.endsWith('.ts'))
  return files.flatMap(file => ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true).importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }): [string, string] => [file, relative(SRC, resolve(SRC, dirname(file), fileName))]))
}

/** The layer of a src/ file: its folder, or `undefined` for a root file. */
function layerOf(file: string): string | undefined {
  const parts = file.split('/')
  return parts.length === 1 ? undefined : parts[0]
}

/** The import circles: each one as the files of a path that returns to its start. */
function circles(edges: ReadonlyArray<[string, string]>): string[] {
  const next = new Map<string, string[]>()
  for (const [from, to] of edges) next.set(from, [...next.get(from) ?? [], to])
  const done = new Set<string>()
  const found: string[] = []
  const visit = (file: string, path: string[]) => {
    if (path.includes(file)) {
      found.push([...path.slice(path.indexOf(file)), file].join(' → '))
      return
    }
    if (done.has(file)) return
    for (const to of next.get(file) ?? []) visit(to, [...path, file])
    done.add(file)
  }
  for (const file of next.keys()) visit(file, [])
  return found
}

describe('src/ is layered', () => {
  const edges = importEdges()

  it('reads the imports it checks', () => {
    expect(edges).toContainEqual(['agent/agent.ts', 'agent/events.ts'])
    expect(edges).toContainEqual(['variants/types.ts', 'tools/registry-order.ts'])
  })

  it('every folder exists in the layer order, and every cross-folder import goes down it', () => {
    const upward = edges.filter(([from, to]) => {
      const [a, b] = [layerOf(from), layerOf(to)]
      for (const layer of [a, b]) if (layer !== undefined) expect(LAYERS).toContain(layer)
      if (a === undefined || a === b) return false
      return b === undefined || LAYERS.indexOf(b) > LAYERS.indexOf(a)
    })
    expect(upward).toEqual([])
  })

  it('no file imports itself back through others', () => {
    expect(circles(edges)).toEqual([])
  })
})
