/**
 * Runs the dsh 0.1.1-rc.2 section (`workspace-child.ts`) in a Node 22 child
 * process, as the sweep runs a dsh scenario: the workspace's packages need
 * dsh's runtime. Null when the workspace is not built.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { node22Binary } from '../harness/hosts/host.ts'
import type { RealAppFigures } from './figures.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The workspace `.ci/build-dsh` builds. */
export const WORKSPACE = `${ROOT}build/dsh/deepseek-harness`

export async function measureWorkspace(options: { quick: boolean, onStep?: (text: string) => void }): Promise<RealAppFigures | null> {
  const node = node22Binary()
  if (!existsSync(`${ROOT}build/dsh/.stamp`) || node === undefined) return null
  const child = spawn(node, ['--import', 'tsx', fileURLToPath(new URL('./workspace-child.ts', import.meta.url)), WORKSPACE, ...options.quick ? ['--quick'] : []], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => { out += text })
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    for (const line of text.split('\n')) if (line.trim() !== '' && !line.includes('ExperimentalWarning') && !line.includes('--trace-warnings')) options.onStep?.(line)
  })
  const code = await new Promise<number | null>(resolve => child.on('close', resolve))
  if (code !== 0) throw new Error(`the dsh 0.1.1-rc.2 bench exited with code ${code}`)
  return JSON.parse(out.trim().split('\n').at(-1)!) as RealAppFigures
}
