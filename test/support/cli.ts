/** Running the real `loadrace` command in a child process, and the scenario files its specs sweep. */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Cli } from '../../harness/cli/command.ts'
import { stripTimings } from '../../harness/report/json.ts'
import { KNOBS } from '../../harness/settings/resolve.ts'
import type { Report } from '../../harness/report/sweep-report.ts'

/** Absolute path of the `loadrace` bin. */
export const BIN = fileURLToPath(new URL('../../bin/loadrace.js', import.meta.url))

/** What a finished command did. */
export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Options of one command run. */
export interface CliOptions {
  cwd: string
  /** The bin to run; default loadrace's own. */
  bin?: string
  /** Added to the environment; `CI` and every setting's `LOADRACE_*` variable are cleared unless given here. */
  env?: Record<string, string>
  /** The Node binary that runs the bin; default this process's. */
  node?: string
}

/** Every setting's variable, empty (unset): a developer's own `LOADRACE_BUDGET` does not reach the commands the specs run. */
const UNSET_SETTINGS = Object.fromEntries(KNOBS.flatMap(knob => knob.variables).map(name => [name, '']))

/** Starts `node bin/loadrace.js …args` without waiting for it; `output()` is what it wrote so far. */
export function startCli(args: readonly string[], options: CliOptions): { child: ChildProcess, done: Promise<CliRun>, output: () => { stdout: string, stderr: string } } {
  const child = spawn(options.node ?? process.execPath, [options.bin ?? BIN, ...args], {
    cwd: options.cwd,
    // No heartbeat unless a test asks for one: on a loaded machine a sweep can outlast its interval.
    env: { ...process.env, ...UNSET_SETTINGS, CI: '', GITHUB_STEP_SUMMARY: '', LOADRACE_HEARTBEAT_MS: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
  return { child, done, output: () => ({ stdout, stderr }) }
}

/** Runs `node bin/loadrace.js …args` to the end. */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  return startCli(args, options).done
}

/** A `Cli` for calling `main()` in this process that keeps what the command writes. */
export function captured(env: Record<string, string> = {}): { cli: Cli, stdout: () => string, stderr: () => string } {
  let stdout = ''
  let stderr = ''
  return {
    cli: { stdout: { write: (text: string) => { stdout += text } }, stderr: { write: (text: string) => { stderr += text } }, env: { LOADRACE_HEARTBEAT_MS: '0', ...env } },
    stdout: () => stdout,
    stderr: () => stderr,
  }
}

/** Runs `action` with `cwd` as the working directory (scenario and report paths are relative to it). */
export async function inDir<T>(cwd: string, action: () => Promise<T>): Promise<T> {
  const previous = process.cwd()
  process.chdir(cwd)
  try {
    return await action()
  } finally {
    process.chdir(previous)
  }
}

/** Reads `<dir>/report.json`. */
export async function readReport(dir: string): Promise<Report> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report
}

/**
 * A report without what legitimately differs between equal runs: timings,
 * the worker count, and the golden paths (the specs give each run its own
 * goldens folder).
 */
export function comparable(report: Report): Report {
  const stripped = stripTimings(report)
  const scenarios = stripped.scenarios.map(({ goldenFile: _path, ...scenario }) => scenario)
  return { ...stripped, scenarios, options: { ...stripped.options, workers: 0 } }
}

/** Whether `path` exists. */
export async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false)
}

/** The names in a folder, sorted. */
export async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort()
}

/** Tool plugin entries `tool-a`, `tool-b`, … each registering one tool named after it. */
function toolPlugins(count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const name = `t${String.fromCharCode(97 + (i % 26))}${i >= 26 ? i : ''}`
    return `  - id: tool-${name}\n    tools: [${name}]\n`
  }).join('')
}

/** Two independent tool plugins under the canonical order: deterministic, space 2. */
export const PAIR = `name: pair\napp: none\nplugins:\n${toolPlugins(2)}expect:\n  outcome: completed\n  tools: [ta, tb]\n`

/** Five independent tool plugins: deterministic, space 120. */
export const FIVE = `name: five\napp: none\nplugins:\n${toolPlugins(5)}expect:\n  outcome: completed\n  tools: [ta, tb, tc, td, te]\n`

/** Two plugins in registration order: the race the sweep must find (space 2, both interleavings differ). */
export const RACE = `name: race\napp: none\nvariant: registration-order\nplugins:\n${toolPlugins(2)}expect:\n  outcome: completed\n  deterministic: false\n`

/** Four plugins in registration order: every interleaving gives its own bytes (space 24). */
export const RACE4 = `name: race4\napp: none\nvariant: registration-order\nplugins:\n${toolPlugins(4)}expect:\n  outcome: completed\n  deterministic: false\n`

/** A scenario file with an unknown outcome. */
export const MALFORMED = `name: broken\nplugins:\n  - id: tool-a\n    tools: [a]\nexpect:\n  outcome: finished\n`

/** `count` tool plugins plus a module plugin (`marker.mjs`) that appends a line to `markerPath` whenever it is applied. */
export function longSweep(count: number, markerPath: string): string {
  return `name: long\napp: none\nplugins:\n${toolPlugins(count)}  - id: marker\n    module: ./marker.mjs\n    config:\n      path: ${JSON.stringify(markerPath)}\nexpect:\n  outcome: completed\n`
}

/** The module plugin `longSweep` needs. */
export const MARKER_MODULE = `import { appendFileSync } from 'node:fs'\nexport default function marker(ctx, config) {\n  appendFileSync(config.path, 'applied\\n')\n}\n`

/**
 * A plugin module that ends the worker process it is applied in (and does
 * nothing in the process running the sweep) behind loadrace's back — Node's
 * internal `process.reallyExit`, not `process.exit` (which is the system's
 * crash, outcome `crashed`) — as a native crash would: loadrace itself loses
 * the interleaving.
 */
export const CRASH_MODULE = `export default function crash() {\n  if (process.env.LOADRACE_WORKER !== undefined) process.reallyExit(3)\n}\n`

/** A scenario whose second plugin is `CRASH_MODULE`. */
export const CRASHING = `name: crashing\napp: none\nplugins:\n${toolPlugins(1)}  - id: crash\n    module: ./crash.mjs\nexpect:\n  outcome: completed\n`

/** Many tool plugins, only listed (never run): a space far beyond 2^53. */
export function huge(count: number): string {
  return `name: huge\napp: none\nplugins:\n${toolPlugins(count)}expect:\n  outcome: completed\n`
}
