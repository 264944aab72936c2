import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PLUGIN_NAME, wrapVitestConfig } from '../../../harness/preload/vitest-plugin.js'
import { userConfigOf, withWrappingConfig, WRAPPING_CONFIG } from '../../../harness/suite/vitest-config.ts'

/**
 * The config loadrace test runs a vitest command with: the user's own, found
 * as vitest finds it, and the loader instrumentation added to the root and
 * to every project (an inline project without `extends: true` does not
 * inherit the root's plugins; a project given as a file or folder is loaded
 * past the root config). The end-to-end run is vitest-boots.spec.ts.
 */

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-vitest-config-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

const VITEST = '/x/node_modules/vitest/vitest.mjs'
const hasPlugin = (config: { plugins?: { name?: string }[] }) => (config.plugins ?? []).some(plugin => plugin.name === PLUGIN_NAME)

describe('the user\'s vitest config', () => {
  it('is the one --config names (against --root), else the first vitest.config.* or vite.config.* from the root up', () => {
    mkdirSync(join(folder, 'app', 'sub'), { recursive: true })
    writeFileSync(join(folder, 'app', 'vite.config.ts'), '')
    writeFileSync(join(folder, 'app', 'vitest.config.mts'), '')
    expect(userConfigOf(['node', VITEST, 'run'], join(folder, 'app', 'sub'))).toBe(join(folder, 'app', 'vitest.config.mts'))
    expect(userConfigOf(['node', VITEST, 'run', '--root', 'app'], folder)).toBe(join(folder, 'app', 'vitest.config.mts'))
    expect(userConfigOf(['node', VITEST, 'run', '-c', 'own.config.ts'], folder)).toBe(join(folder, 'own.config.ts'))
    expect(userConfigOf(['node', VITEST, 'run', '--config=false'], folder)).toBeUndefined()
  })

  it('is imported by the wrapping config, whose --config replaces the command\'s own, every other argument kept', () => {
    writeFileSync(join(folder, 'vitest.config.ts'), '')
    const argv = withWrappingConfig(['node', VITEST, 'run', '-c', 'vitest.config.ts', 'tests/a.spec.ts', '--reporter=json'], folder, folder)
    expect(argv).toEqual(['node', VITEST, 'run', '--config', join(folder, WRAPPING_CONFIG), 'tests/a.spec.ts', '--reporter=json'])
    const written = readFileSync(join(folder, WRAPPING_CONFIG), 'utf8')
    expect(written).toContain(JSON.stringify(join(folder, 'vitest.config.ts')))
    expect(written).toContain('wrapVitestConfig')
  })
})

describe('the wrapping config', () => {
  it('adds the instrumentation to the root and to every project: inline, a function, a file (as an inline project extending it); a glob is said not reached', async () => {
    writeFileSync(join(folder, 'vitest.b.config.ts'), '')
    mkdirSync(join(folder, 'pkg'))
    writeFileSync(join(folder, 'pkg', 'vitest.config.ts'), '')
    const user = { plugins: [{ name: 'theirs' }], test: { projects: [{ test: { name: 'a' } }, () => ({ test: { name: 'f' } }), 'vitest.b.config.ts', 'pkg', 'packages/*'] } }
    const wrapped = await wrapVitestConfig(user, {}, { root: folder })
    expect(wrapped.plugins.map((plugin: { name: string }) => plugin.name)).toEqual(['theirs', PLUGIN_NAME])
    const [inline, fn, file, pkg, glob] = wrapped.test.projects
    expect(hasPlugin(inline)).toBe(true)
    expect(hasPlugin(await fn({}))).toBe(true)
    expect(file).toMatchObject({ extends: join(folder, 'vitest.b.config.ts'), root: folder })
    expect(hasPlugin(file)).toBe(true)
    expect(pkg).toMatchObject({ extends: join(folder, 'pkg', 'vitest.config.ts'), root: join(folder, 'pkg') })
    expect(glob).toBe('packages/*')
    // The user's own config is left as it was.
    expect(user.plugins).toEqual([{ name: 'theirs' }])
  })

  it('instruments only the loader\'s entry module, once', async () => {
    const wrapped = await wrapVitestConfig({}, {}, { root: folder })
    const plugin = wrapped.plugins.find((candidate: { name: string }) => candidate.name === PLUGIN_NAME) as { transform(code: string, id: string): { code: string } | undefined }
    const loader = join(process.cwd(), 'node_modules', '@deepseek-ai', 'cordis-plugin-loader', 'src', 'index.ts')
    const once = plugin.transform('export const x = 1\n', loader)
    expect(once?.code).toContain('./index.ts')
    expect(plugin.transform(once!.code, loader)).toBeUndefined()
    expect(plugin.transform('export const x = 1\n', join(process.cwd(), 'harness', 'index.ts'))).toBeUndefined()
  })
})
