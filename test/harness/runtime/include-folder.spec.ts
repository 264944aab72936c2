/**
 * The `cordis.yml` a `loader: include` scenario is written to lives in a
 * temporary folder of the process, removed when the process exits, whichever
 * runner ran the interleavings.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

describe('the include file\'s folder', () => {
  for (const workers of ['1', '2']) {
    it(`is gone after a sweep with --workers ${workers}`, () => {
      const tmp = mkdtempSync(join(tmpdir(), 'loadrace-include-test-'))
      try {
        const run = spawnSync(process.execPath, ['bin/loadrace.js', 'sweep', 'scenarios/include-loader.yml', '--workers', workers, '--report', join(tmp, 'report'), '--goldens', join(tmp, 'goldens'), '--update-goldens'], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8' })
        expect(run.status, run.stderr).toBe(0)
        expect(readdirSync(tmp).filter(name => name.startsWith('loadrace-'))).toEqual([])
      } finally {
        rmSync(tmp, { recursive: true, force: true })
      }
    }, 60_000)
  }
})
