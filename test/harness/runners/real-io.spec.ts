/**
 * No process the system started outlives its interleaving, whichever runner
 * ran it: worker processes end the helpers of the interleavings they run,
 * and an interrupted `loadrace sweep` (SIGINT), in process or with worker
 * processes, leaves no helper alive.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { awaitGone, helperMarks, realIoFolders, realIoScenario } from '../../support/real-io-fixtures.ts'

const BIN = fileURLToPath(new URL('../../../bin/loadrace.js', import.meta.url))

const folders = realIoFolders()
const marksDir = () => folders.marks()

describe('helpers end with their interleaving', () => {
  it('on worker processes: every disposer ran, no helper is alive after the sweep', async () => {
    const marks = await marksDir()
    const scenario = await loadScenario(await realIoScenario(folders.dir(), 'pooled', 'helper-server', JSON.stringify({ marks }), 'timeout: 3000\n'))
    const runner = workerPool({ size: 2 })
    try {
      const report = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 2 }, { runner })
      expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
    } finally {
      await runner.close()
    }
    const { started, disposed } = helperMarks(marks)
    expect(started.length).toBeGreaterThanOrEqual(3)
    expect(disposed).toEqual(started)
    expect(await awaitGone(started, 0)).toEqual([])
  })

  for (const workers of ['1', '2']) {
    it(`a loadrace sweep --workers ${workers} interrupted as Ctrl-C does (SIGINT to its process group) leaves no helper alive and no interleaving's folder`, async () => {
      const marks = await marksDir()
      const out = await marksDir()
      // The sweep's temporary folder: every interleaving's folder is made there.
      const tmp = await marksDir()
      // The helper never says ready: each interleaving runs into its 4 s wait, long enough to be interrupted in.
      const file = await realIoScenario(folders.dir(), `interrupted-${workers}`, 'helper-server', JSON.stringify({ marks, silent: true }))
      const sweep = spawn(process.execPath, [BIN, 'sweep', file, '--workers', workers, '--report', join(out, 'report'), '--goldens', join(out, 'goldens')], { cwd: folders.dir().root, stdio: 'ignore', detached: true, env: { ...process.env, TMPDIR: tmp } })
      const exited = once(sweep, 'exit')
      const until = Date.now() + 60_000
      while (helperMarks(marks).started.length === 0 && Date.now() < until) await new Promise(resolve => setTimeout(resolve, 20))
      // The whole group, as a terminal's Ctrl-C: worker processes get it too, in the middle of an interleaving.
      process.kill(-sweep.pid!, 'SIGINT')
      await exited
      const { started } = helperMarks(marks)
      expect(started.length).toBeGreaterThan(0)
      expect(await awaitGone(started)).toEqual([])
      expect(readdirSync(tmp).filter(name => name.startsWith('loadrace-'))).toEqual([])
    })
  }
})
