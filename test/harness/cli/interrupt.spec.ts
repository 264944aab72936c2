import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'
import { exists, listing, longSweep, MARKER_MODULE, readReport, startCli } from '../../support/cli.ts'
import { JOBS_PER_MESSAGE } from '../../../harness/runners/worker-protocol.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('marker.mjs', MARKER_MODULE)
})

afterAll(removeFixtureDirs)

/**
 * Resolves once the marker plugin was applied more than two messages' worth
 * of times (it is applied once per interleaving). A worker sends its answers
 * at most {@link JOBS_PER_MESSAGE} at a time, and before it starts the next
 * interleaving; of two workers, one has then sent some, so at least one
 * interleaving has been reported, whichever runner ran them.
 */
async function started(marker: string): Promise<void> {
  const applied = async () => (await exists(marker) ? (await readFile(marker, 'utf8')).split('\n').length - 1 : 0)
  while (await applied() <= 2 * JOBS_PER_MESSAGE) await new Promise(resolve => setTimeout(resolve, 50))
}

describe('interrupting a sweep', () => {
  for (const [signal, code, workers] of [['SIGINT', 130, '2'], ['SIGTERM', 143, '1']] as const) {
    it(`${signal} (--workers ${workers}) stops within 2 s, writes the partial report and exits ${code}`, async () => {
      const marker = join(dir.root, `started-${signal}`)
      await dir.write(`long-${signal}.yml`, longSweep(8, marker))
      const report = `report-${signal}`
      const { child, done } = startCli(
        ['sweep', `long-${signal}.yml`, '--strategy', 'exhaustive', '--budget', '100000', '--workers', workers, '--report', report],
        { cwd: dir.root },
      )
      await started(marker)
      const sent = Date.now()
      child.kill(signal)
      const run = await done
      const took = Date.now() - sent
      expect(run.code).toBe(code)
      expect(run.signal).toBeNull()
      expect(took).toBeLessThan(2000)
      expect(run.stderr).toContain(`loadrace: ${signal}: stopping`)
      expect(run.stdout).toContain('INCOMPLETE (interrupted)')
      expect(await listing(join(dir.root, report))).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
      const written = await readReport(join(dir.root, report))
      expect(written.complete).toBe(false)
      const long = written.scenarios[0]!
      expect(long.space).toBe('362880')
      expect(long.explored).toBeGreaterThan(0)
      expect(long.explored).toBeLessThan(100000)
      expect(long.outputs.reduce((total, output) => total + output.count, 0)).toBe(long.explored)
      expect(long.problems[0]).toBe('interrupted before the exploration finished')
    })
  }
})
