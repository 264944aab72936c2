import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { startCli } from '../../support/cli.ts'
import { SUITE_APP } from '../../support/suite-app.ts'

/** Interrupting `loadrace test` ends the command it runs, and every process the command started. */

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-test-interrupt-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

it('SIGINT ends the command and the processes it started, one that ignores SIGTERM too, and exits 130', async () => {
  const pids = join(folder, 'pids')
  // The command starts a child that would run for a minute and ignores SIGTERM, and waits for it.
  const script = `const { spawn } = require('node:child_process'); const fs = require('node:fs');
const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
fs.writeFileSync(${JSON.stringify(pids)}, process.pid + ' ' + child.pid); child.on('exit', () => process.exit(0))`
  const run = startCli(['test', '--report', join(folder, 'report'), '--', process.execPath, '-e', script], { cwd: folder })
  for (let waited = 0; !existsSync(pids) && waited < 30_000; waited += 50) await new Promise(resolve => setTimeout(resolve, 50))
  const [command, grandchild] = readFileSync(pids, 'utf8').split(' ').map(Number) as [number, number]
  run.child.kill('SIGINT')
  const done = await run.done
  expect(done.code).toBe(130)
  for (let waited = 0; (alive(command) || alive(grandchild)) && waited < 10_000; waited += 50) await new Promise(resolve => setTimeout(resolve, 50))
  expect(alive(command)).toBe(false)
  expect(alive(grandchild)).toBe(false)
}, 60_000)

it('SIGINT while two tests are rerun alone side by side (--jobs 2) ends both reruns and what they started', async () => {
  const pids = join(folder, 'pids')
  const suite = fileURLToPath(new URL('../../fixtures/suite-app/hang-tests/hang.test.mjs', import.meta.url))
  const run = startCli(['test', '--jobs', '2', '--report', join(folder, 'report'), '--', process.execPath, '--test', suite], {
    cwd: SUITE_APP, env: { HANG_PIDS: pids },
  })
  const started = () => existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').flatMap(line => line.split(' ').map(Number)) : []
  try {
    // Both tests differ between the natural run and the schedule, so both are rerun alone, at once: two test processes, two children.
    for (let waited = 0; started().length < 4 && waited < 60_000; waited += 100) await new Promise(resolve => setTimeout(resolve, 100))
    const processes = started()
    // What the command said so far shows which runs gave which results, should a rerun be missing.
    expect(processes, run.output().stdout + run.output().stderr).toHaveLength(4)
    run.child.kill('SIGINT')
    const interrupted = Date.now()
    const done = await run.done
    expect(done.code).toBe(130)
    // Both reruns were ended, not waited for: each test process waits a minute for its child.
    expect(Date.now() - interrupted).toBeLessThan(30_000)
    // A rerun the interruption ended is no result: neither test gets a final verdict, each is marked partial.
    expect(done.stdout).not.toMatch(/^✗ (flaky|pins-one)/m)
    expect(new Set(done.stdout.split('\n').filter(line => line.startsWith('? pins-one (partial)'))).size).toBe(2)
    for (let waited = 0; processes.some(alive) && waited < 10_000; waited += 50) await new Promise(resolve => setTimeout(resolve, 50))
    expect(processes.filter(alive)).toEqual([])
  } finally {
    // A failed expectation leaves nothing running behind it: the command is interrupted, and what it started is killed.
    if (run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGINT')
      await run.done
    }
    for (const pid of started().filter(alive)) process.kill(pid, 'SIGKILL')
  }
}, 120_000)
