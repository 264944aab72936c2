import { readFileSync, readdirSync } from 'node:fs'
import { cpuNow } from './clock.ts'

/**
 * CPU time of this process and of its child processes — a pool's worker
 * processes — read from Linux's `/proc`; elsewhere, this process's alone.
 */

/** Clock ticks per second of `/proc`'s CPU fields (`getconf CLK_TCK`; 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100

/** The pids of this process's children (`/proc/self/task/<tid>/children`), none where `/proc` is absent. */
export function childPids(): number[] {
  try {
    return readdirSync('/proc/self/task').flatMap(thread => readFileSync(`/proc/self/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
  } catch {
    return []
  }
}

/** Milliseconds of CPU time (user + system, every thread) `pid` has used, from `/proc/<pid>/stat`; 0 once it is gone. */
export function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    return 0
  }
}

/** Milliseconds of CPU time this process and its living children have used so far. */
export function treeCpuNow(): number {
  return childPids().reduce((sum, pid) => sum + processCpu(pid), cpuNow())
}
