/**
 * A system that listens on a fixed port and fetches from it, swept as its
 * developers run it (one system on the machine at a time) would see it:
 * - interleavings in worker processes side by side do not collide on the
 *   port (the second bind waits for the first system's teardown instead of
 *   failing with EADDRINUSE), and no lock is left behind;
 * - a keep-alive connection the process-wide `fetch` pooled in one
 *   interleaving is closed through its socket at teardown, so the next
 *   interleaving's fetch opens a new one instead of writing to a dead handle;
 * - waiting is fair (a process that wants the port queues behind one already
 *   waiting), and a lock or a wait left by a process that is gone is ignored.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { fixedPortOf, portLockFile } from '../../../harness/runtime/fixed-ports.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { realIoFolders, realIoScenario } from '../../support/real-io-fixtures.ts'

const folders = realIoFolders()

/** A port free on this machine now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise(resolve => server.close(resolve))
  return port
}

async function sweepFixedPort(name: string, runner: Runner, workers: number, holdMs: number, rivals: number) {
  const port = await freePort()
  const scenario = await loadScenario(await realIoScenario(folders.dir(), name, 'fixed-port-fetch', JSON.stringify({ port, holdMs }), 'timeout: 20000\n', rivals))
  try {
    const report = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers }, { runner })
    return { port, scenario, report }
  } finally {
    await runner.close()
  }
}

describe('fixed ports', () => {
  it('reads the port a listen call names, and no other', () => {
    expect(fixedPortOf([43117, '127.0.0.1', () => {}])).toBe(43117)
    expect(fixedPortOf([{ port: 8080, host: 'localhost' }])).toBe(8080)
    expect(fixedPortOf(['9000'])).toBe(9000)
    expect(fixedPortOf([0])).toBeUndefined()
    expect(fixedPortOf(['/tmp/socket'])).toBeUndefined()
    expect(fixedPortOf([() => {}])).toBeUndefined()
    expect(fixedPortOf([{ path: '/tmp/socket' }])).toBeUndefined()
  })

  it('worker processes side by side: every interleaving binds and fetches, the verdict is deterministic, no lock is left', async () => {
    // Six interleavings, the server up 300 ms of real time in each: the two workers' interleavings overlap on the port.
    const { port, scenario, report } = await sweepFixedPort('side-by-side', workerPool({ size: 2 }), 2, 300, 2)
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true, explored: 6 })
    const result = await runInterleaving(scenario, referenceTarget, ['fixed-port-fetch', 'tool-fast', 'tool-2'])
    expect(result.json).toContain('fetched: page')
    expect(existsSync(portLockFile(port))).toBe(false)
  })

  it('in process, one interleaving after another: a connection pooled by the last interleaving is not reused dead', async () => {
    const { scenario, report } = await sweepFixedPort('one-after-another', inProcessRunner(), 1, 0, 1)
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
    for (const schedule of [['fixed-port-fetch', 'tool-fast'], ['tool-fast', 'fixed-port-fetch'], ['fixed-port-fetch', 'tool-fast']]) {
      const result = await runInterleaving(scenario, referenceTarget, schedule)
      expect(result.json).toContain('fetched: page')
    }
  })

  it('queues behind another process already waiting for the port, and binds once it has stopped waiting', async () => {
    const port = await freePort()
    const scenario = await loadScenario(await realIoScenario(folders.dir(), 'queued', 'fixed-port-fetch', JSON.stringify({ port }), 'timeout: 20000\n'))
    const waiter = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' })
    const waitFile = join(tmpdir(), `loadrace-port-${port}.wait-${waiter.pid}`)
    writeFileSync(waitFile, '')
    try {
      let settled = false
      const run = runInterleaving(scenario, referenceTarget, ['fixed-port-fetch', 'tool-fast']).finally(() => { settled = true })
      await new Promise(resolve => setTimeout(resolve, 500))
      expect(settled).toBe(false)
      rmSync(waitFile)
      expect((await run).json).toContain('fetched: page')
      expect(existsSync(portLockFile(port))).toBe(false)
    } finally {
      rmSync(waitFile, { force: true })
      waiter.kill()
    }
  })

  it('takes over a lock and ignores a wait left by a process that is gone', async () => {
    const port = await freePort()
    const scenario = await loadScenario(await realIoScenario(folders.dir(), 'taken-over', 'fixed-port-fetch', JSON.stringify({ port }), 'timeout: 20000\n'))
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    await once(gone, 'exit')
    const files = [portLockFile(port), join(tmpdir(), `loadrace-port-${port}.wait-${gone.pid}`)]
    writeFileSync(files[0]!, String(gone.pid))
    writeFileSync(files[1]!, '')
    try {
      const result = await runInterleaving(scenario, referenceTarget, ['fixed-port-fetch', 'tool-fast'])
      expect(result.json).toContain('fetched: page')
      expect(files.filter(file => existsSync(file))).toEqual([])
    } finally {
      for (const file of files) rmSync(file, { force: true })
    }
  })
})
