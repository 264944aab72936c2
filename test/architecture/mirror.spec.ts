import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * Keeps test/ a mirror of the code: every room of harness/ and every folder
 * of src/ has a spec folder of the same name under test/ (`test/harness/<room>/`,
 * `test/src/<folder>/`) holding at least one spec.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function folders(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter(entry => entry.isDirectory())
    .map(entry => `${dir}/${entry.name}`)
}

function hasSpec(dir: string): boolean {
  try {
    return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).some(name => name.endsWith('.spec.ts'))
  } catch {
    return false
  }
}

/** The code folders whose mirror under `test/` is missing or holds no spec. */
export function unmirrored(codeFolders: readonly string[], specFolderHasSpec: (dir: string) => boolean): string[] {
  return codeFolders.filter(folder => !specFolderHasSpec(`test/${folder}`)).map(folder => `${folder}/ has no spec in test/${folder}/`)
}

describe('the test tree mirrors the code', () => {
  it('gives every room of harness/ and every folder of src/ a spec folder under test/', () => {
    expect(unmirrored([...folders('harness'), ...folders('src')], hasSpec)).toEqual([])
  })
})

describe('the mirror check itself', () => {
  it('names each code folder whose spec folder is missing or empty', () => {
    const specs = new Set(['test/harness/a'])
    expect(unmirrored(['harness/a', 'harness/b', 'src/c'], dir => specs.has(dir)))
      .toEqual(['harness/b/ has no spec in test/harness/b/', 'src/c/ has no spec in test/src/c/'])
  })
})
