import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ProcessGroups } from '../../../harness/signals/process-groups.ts'

/** Ending the process groups of the commands loadrace runs: every process of a group, a process that ignores SIGTERM included. */

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-groups-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A command leading its own group, which starts a process that ignores SIGTERM (its stdio its own) and writes both pids;. */
async function command(groups: ProcessGroups): Promise<{ leader: number, straggler: number, closed: Promise<void> }> {
  const pids = join(folder, 'pids')
  const script = `const { spawn } = require('node:child_process'); const fs = require('node:fs');
const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
fs.writeFileSync(${JSON.stringify(pids)}, process.pid + ' ' + child.pid); setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore', detached: true })
  groups.track(child, 'started')
  const closed = new Promise<void>(resolve => child.on('close', () => { groups.track(child, 'ended'); resolve() }))
  while (!existsSync(pids) || readFileSync(pids, 'utf8').split(' ').length < 2) await new Promise(resolve => setTimeout(resolve, 20))
  const [leader, straggler] = readFileSync(pids, 'utf8').split(' ').map(Number) as [number, number]
  return { leader, straggler, closed }
}

describe('process groups', () => {
  it('end every process of a running command: SIGTERM, then SIGKILL after the grace for what ignored it', async () => {
    const groups = new ProcessGroups()
    const { leader, straggler, closed } = await command(groups)
    expect(groups.size).toBe(1)
    groups.endAll()
    await closed
    expect(alive(leader)).toBe(false)
    // The command is gone; what it started and ignores SIGTERM is still there until the grace ends.
    expect(alive(straggler)).toBe(true)
    await groups.finish(300)
    for (let waited = 0; alive(straggler) && waited < 5000; waited += 20) await new Promise(resolve => setTimeout(resolve, 20))
    expect(alive(straggler)).toBe(false)
    expect(groups.size).toBe(0)
  }, 20_000)

  it('finish is immediate when nothing was ended', async () => {
    const started = Date.now()
    await new ProcessGroups().finish(10_000)
    expect(Date.now() - started).toBeLessThan(1000)
  })
})
