import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { MemoryFigures } from './figures.ts'

const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url))

/** One memory sweep: which scenario, how, how far. */
export interface MemoryJob {
  file: string
  strategy: 'exhaustive' | 'auto'
  /** Interleavings swept after the warm-up (the scenario's own `budget:` is lifted). */
  interleavings: number
  /** Interleavings of the untimed warm-up sweep before the baseline. */
  warmup: number
}

/** Progress of a memory sweep: interleavings done of planned, live heap and RSS (MB) after forced GC. */
export type MemoryProgress = (done: number, planned: number, heapUsedMb: number, rssMb: number) => void

/**
 * Sweeps `job` in a child process started with `--expose-gc`, one worker,
 * and returns its resident-memory growth (RSS after minus RSS before, each
 * after forced collections) with the live heap every tenth of the sweep,
 * reporting each tenth to `onProgress` as it comes.
 */
export function measureMemory(job: MemoryJob, onProgress?: MemoryProgress): Promise<MemoryFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let pending = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n')
      pending = lines.pop()!
      for (const line of lines) {
        const progress = /^progress (\d+) (\d+) ([\d.]+) ([\d.]+)$/.exec(line)
        if (progress) onProgress?.(Number(progress[1]), Number(progress[2]), Number(progress[3]), Number(progress[4]))
        else stderr += `${line}\n`
      }
    })
    child.on('error', reject)
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? ''
      if (code !== 0 || line === '') return reject(new Error(`memory child exited with ${code}: ${(stderr + pending).trim() || stdout.trim()}`))
      resolve(JSON.parse(line) as MemoryFigures)
    })
  })
}
