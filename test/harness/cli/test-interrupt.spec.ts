import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startCli } from '../../support/cli.ts'

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
