import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { MemoryFigures } from './figures.ts'

const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url))

/**
 * Sweeps `interleavings` schedules of `file` exhaustively in a child process
 * started with `--expose-gc`, and returns its resident-memory growth (RSS
 * after minus RSS before, each after forced collections).
 */
export function measureMemory(file: string, interleavings: number): Promise<MemoryFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, file, String(interleavings)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    child.on('error', reject)
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? ''
      if (code !== 0 || line === '') return reject(new Error(`memory child exited with ${code}: ${stderr.trim() || stdout.trim()}`))
      resolve(JSON.parse(line) as MemoryFigures)
    })
  })
}
