import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RECORDS_VARIABLE, SCHEDULE_VARIABLE, type BootRecord } from '../../../harness/preload/protocol.js'
import { nodeOptionsWithPreload } from '../../../harness/suite/command-run.ts'
import { VITEST_BOOTS } from '../../support/vitest-boots.ts'

/**
 * What the preload names each boot, on real cordis in a real process
 * (test/fixtures/vitest-boots/boot-many.mjs boots five compositions one
 * after another): the same entries from two temporary folders, with a
 * different port written into each, are one configuration; other entries
 * are another; a cordis.yml in the project is named by its path; entries on
 * a root loader with no include by the script. Each boot has its own record.
 */

const run = promisify(execFile)
let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-identity-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

async function bootMany(env: Record<string, string> = {}): Promise<BootRecord[]> {
  const schedule = join(folder, 'schedule.json')
  const records = join(folder, 'records')
  mkdirSync(records)
  writeFileSync(schedule, JSON.stringify({ mode: 'natural', rows: {}, project: VITEST_BOOTS }))
  await run(process.execPath, ['boot-many.mjs'], { cwd: VITEST_BOOTS, env: { ...process.env, NODE_OPTIONS: nodeOptionsWithPreload(undefined), [SCHEDULE_VARIABLE]: schedule, [RECORDS_VARIABLE]: records, ...env } })
  return readdirSync(records).map(name => JSON.parse(readFileSync(join(records, name), 'utf8')) as BootRecord).sort((a, b) => a.boot - b.boot)
}

describe('the configuration a boot is named by', () => {
  it('is the same for the same entries from any temporary folder, whatever their config holds, and another for other entries', async () => {
    const boots = await bootMany()
    expect(boots.map(boot => boot.boot)).toEqual([1, 2, 3, 4, 5])
    const [first, second, other, inProject, entries] = boots.map(boot => boot.configuration)
    expect(first).toMatch(/^boot-many\.mjs › cordis\.yml#[0-9a-f]{8}$/)
    expect(second).toBe(first)
    expect(other).toMatch(/^boot-many\.mjs › cordis\.yml#[0-9a-f]{8}$/)
    expect(other).not.toBe(first)
    expect(inProject).toBe('configs/pair.cordis.yml')
    expect(entries).toBe('boot-many.mjs')
    // Each boot releases its own entries, labelled below the include entry the loader made an id up for.
    expect(boots[0]!.released.slice().sort()).toEqual(['cordis.include.alpha', 'cordis.include.beta', 'cordis.include.names'])
    expect(boots[4]!.released.slice().sort()).toEqual(['gamma', 'names'])
    expect(boots.every(boot => boot.test === undefined)).toBe(true)
  })

  it('names a cordis.yml of a project checked out under the temporary folder by its path, as any project\'s', async () => {
    // The fixture project's parent as the temporary folder: the project and the script's own temporary folders lie below it.
    const [first, , , inProject] = (await bootMany({ TMPDIR: dirname(VITEST_BOOTS) })).map(boot => boot.configuration)
    expect(inProject).toBe('configs/pair.cordis.yml')
    expect(first).toMatch(/^boot-many\.mjs › cordis\.yml#[0-9a-f]{8}$/)
  })
})
