import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { BIN, PACKAGE_ROOT } from '../../../harness/package/files.ts'

const CHECKOUT = new URL('../../../', import.meta.url)
const made: string[] = []
afterAll(() => Promise.all(made.splice(0).map(dir => rm(dir, { recursive: true, force: true }))))

describe("loadrace's own files", () => {
  it('are found in the checkout: the folder holding its package.json', async () => {
    expect(PACKAGE_ROOT.href).toBe(CHECKOUT.href)
    expect(JSON.parse(await readFile(new URL('package.json', PACKAGE_ROOT), 'utf8')).name).toBe('loadrace')
  })

  it('name the `loadrace` command package.json declares as its bin', async () => {
    const manifest = JSON.parse(await readFile(new URL('package.json', CHECKOUT), 'utf8')) as { bin: Record<string, string> }
    expect(BIN.href).toBe(new URL(manifest.bin.loadrace!, CHECKOUT).href)
    expect(existsSync(BIN)).toBe(true)
  })

  it('are found upwards from an installed package, whose modules sit in dist/', async () => {
    const root = await mkdtemp(join(tmpdir(), 'loadrace-package-'))
    made.push(root)
    const folder = join(root, 'dist', 'harness', 'package')
    await mkdir(folder, { recursive: true })
    await writeFile(join(root, 'package.json'), '{"name":"loadrace","version":"9.8.7"}\n')
    for (const file of ['files.ts', 'version.ts']) await copyFile(new URL(`../../../harness/package/${file}`, import.meta.url), join(folder, file))
    const installed = await import(pathToFileURL(join(folder, 'files.ts')).href) as typeof import('../../../harness/package/files.ts')
    expect(installed.PACKAGE_ROOT.href).toBe(pathToFileURL(`${root}/`).href)
    expect(installed.BIN.href).toBe(pathToFileURL(join(root, 'bin', 'loadrace.js')).href)
    const { VERSION } = await import(pathToFileURL(join(folder, 'version.ts')).href) as typeof import('../../../harness/package/version.ts')
    expect(VERSION).toBe('9.8.7')
  })

  it('are a clear error when no package.json is above the module', async () => {
    const root = await mkdtemp(join(tmpdir(), 'loadrace-package-'))
    made.push(root)
    await copyFile(new URL('../../../harness/package/files.ts', import.meta.url), join(root, 'files.ts'))
    const ancestors = root.split('/').map((_, at, parts) => `${parts.slice(0, at + 1).join('/')}/package.json`)
    expect(ancestors.filter(path => existsSync(path))).toEqual([])
    await expect(import(pathToFileURL(join(root, 'files.ts')).href)).rejects.toThrow(/^no package\.json above file:\/\/.*\/files\.ts$/)
  })
})
