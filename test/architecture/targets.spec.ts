import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { targetNames } from '../../harness/targets/registry.ts'
import { ROOT, sourceFiles, specifiersOf } from '../support/source-files.ts'

/**
 * Keeps the targets room the only one that knows a target: outside
 * `harness/targets/`, no file imports a target's own modules (`targets/dsh/…`,
 * `targets/reference…`) and no line names a registered target beside a target
 * (`scenario.target === 'dsh'`, `target: 'reference'`, a list of target
 * names). The rest of the harness asks the registry.
 */

const TARGETS_ROOM = 'harness/targets/'

/** Whether a module path (from the checkout's root) is a target's own module rather than the room's shared ones. */
function isTargetModule(path: string): boolean {
  return /^harness\/targets\/(dsh\/|reference)/.test(path)
}

/** Every way `file` (outside the targets room) names a target, one line each; empty when it names none. */
export function targetMentions(file: string, source: string, names: readonly string[]): string[] {
  const found = specifiersOf(source)
    .filter(specifier => isTargetModule(normalize(join(dirname(file), specifier))))
    .map(specifier => `${file} imports ${specifier}`)
  const literal = new RegExp(`(['"\`])(${names.map(name => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\1`)
  source.split('\n').forEach((line, index) => {
    // Prose may speak of a target; code may not name one.
    if (/^\s*(\*|\/\*|\/\/)/.test(line)) return
    const name = literal.exec(line)?.[2]
    if (name !== undefined && /target/i.test(line)) found.push(`${file}:${index + 1} names the ${name} target: ${line.trim()}`)
  })
  return found
}

describe('the targets room', () => {
  it('is the only room that names a target or imports a target\'s modules', () => {
    const outside = sourceFiles('harness').filter(file => !file.startsWith(TARGETS_ROOM) && file.endsWith('.ts'))
    expect(outside.length).toBeGreaterThan(100)
    const mentions = outside.flatMap(file => targetMentions(file, readFileSync(join(ROOT, file), 'utf8'), targetNames()))
    expect(mentions).toEqual([])
  })
})

describe('the check itself', () => {
  const names = ['reference', 'dsh']
  it('finds a comparison, a property and a list naming a target, and an import of a target module', () => {
    const source = [
      "import { readSnapshot } from '../targets/dsh/snapshot.ts'",
      "import { referenceTarget } from '../targets/reference.ts'",
      "const runtime = scenario.target === 'dsh' ? a : b",
      "  if (!policy || scenario.target !== 'reference') return",
      "  return { target: 'dsh', app: 'none' }",
      "export const COMPARED_TARGETS = ['reference', 'dsh']",
    ].join('\n')
    expect(targetMentions('harness/sweep/sweep.ts', source, names)).toHaveLength(6)
  })

  it('leaves the room\'s shared modules, other words and lines about no target alone', () => {
    const source = [
      "import { targetNamed } from '../targets/registry.ts'",
      "import type { Target } from '../targets/target.ts'",
      "const REFERENCE = 'reference'",
      "  naturalOrderFails: failing === 'reference',",
      "  if (scenario.target === DEFAULT_TARGET) return 'references'",
      " * written only for a target other than the default `reference`",
    ].join('\n')
    expect(targetMentions('harness/suite/merge.ts', source, names)).toEqual([])
  })
})
