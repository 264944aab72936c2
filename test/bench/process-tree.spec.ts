import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { cpuNow } from '../../bench/clock.ts'
import { childPids, processCpu, treeCpuNow } from '../../bench/process-tree.ts'

/** A child that spins until it has used `ms` of CPU by its own count, says so, then waits to be ended. */
const SPINNER = `
const until = Number(process.argv[1])
let sink = 0
while (process.cpuUsage().user / 1000 < until) sink += Math.sqrt(sink + 1)
process.stdout.write('spun ' + (sink > 0) + '\\n')
setInterval(() => {}, 1000)
`

describe.runIf(existsSync('/proc/self/stat'))('the CPU time of a process tree', () => {
  const children: ReturnType<typeof spawn>[] = []
  afterEach(async () => {
    await Promise.all(children.splice(0).map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill()
        await once(child, 'exit')
      }
    }))
  })

  it('counts a child process\'s own CPU time, and adds it to this process\'s', async () => {
    const before = treeCpuNow()
    const ownBefore = cpuNow()
    const child = spawn(process.execPath, ['-e', SPINNER, '400'], { stdio: ['ignore', 'pipe', 'inherit'] })
    children.push(child)
    const [said] = await once(child.stdout!, 'data') as [Buffer]
    expect(said.toString()).toBe('spun true\n')

    expect(childPids()).toContain(child.pid)
    // The child's own count said 400 ms of user time; /proc counts in ticks of 10 ms, user and system together.
    expect(processCpu(child.pid!)).toBeGreaterThanOrEqual(390)
    const treeGrew = treeCpuNow() - before
    const ownGrew = cpuNow() - ownBefore
    expect(treeGrew - ownGrew).toBeGreaterThanOrEqual(390)
  })

  it('counts a process that is gone as nothing', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    children.push(child)
    await once(child, 'exit')
    expect(childPids()).not.toContain(child.pid)
    expect(processCpu(child.pid!)).toBe(0)
  })
})
