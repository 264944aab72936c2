import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { VERSION } from '../../../harness/package/version.ts'

describe("loadrace's version", () => {
  it("is the version of the checkout's package.json", async () => {
    const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(VERSION).toBe(manifest.version)
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/)
  })
})
