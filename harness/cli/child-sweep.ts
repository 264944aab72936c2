import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { BIN } from '../package/files.ts'
import type { Report } from '../report/sweep-report.ts'
import type { Env } from './environment.ts'

/** What one `loadrace sweep` in a child process did. */
export interface ChildSweep {
  code: number | null
  /** Its report.json, when it wrote one (exit 0 or 1). */
  report?: Report
  /** What it said on stderr (a bad scenario file's line, an error). */
  stderr: string
}

/**
 * Runs `loadrace sweep FILE… ARGS… --reporter json` in a child process and
 * reads the report it prints. A child imports every plugin module afresh, so
 * an edited module is what runs. The report files go to `reportDir`. Killed
 * when `signal` aborts.
 */
export function sweepInChild(files: readonly string[], args: readonly string[], reportDir: string, env: Env, signal: AbortSignal): Promise<ChildSweep> {
  const child = spawn(process.execPath, [fileURLToPath(BIN), 'sweep', ...files, ...args, '--reporter', 'json', '--format', 'json', '--report', reportDir], {
    env: { ...env, LOADRACE_HEARTBEAT_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    signal,
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  return new Promise((resolve) => {
    child.on('error', () => resolve({ code: null, stderr }))
    child.on('close', (code) => {
      if (code !== 0 && code !== 1) return resolve({ code, stderr })
      try {
        resolve({ code, report: JSON.parse(stdout) as Report, stderr })
      } catch {
        resolve({ code, stderr: `${stderr}loadrace watch: the sweep printed no report\n` })
      }
    })
  })
}
