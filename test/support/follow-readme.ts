/**
 * Following the README as a user would, in a folder of its own: writing the
 * files it shows, running its commands through the shell (a `cd` moves on to
 * another folder, as it would in a terminal), checking each exit code and
 * the output it shows, and running every replay command a sweep prints. And
 * a repository made from this working tree, to stand in for the published
 * one wherever the README says `<loadrace repository>`.
 */
import { execFile, spawn } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from 'vitest'
import type { Report } from '../../harness/report/sweep-report.ts'
import { missingLines, type Step } from './readme-steps.ts'

const exec = promisify(execFile)

/** This checkout. */
export const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url))

/** What a command printed, and how it ended. */
export interface ShellRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * The environment of a user's shell: the test's own, without what vitest,
 * npm's `npm test` and loadrace's own settings add (markers, `npm_*`
 * variables, the checkout's `node_modules/.bin` on the path, colour, CI,
 * `LOADRACE_NODE22`), and no heartbeat. npm prefers its cache, as on a
 * machine that installed these packages before (this checkout's `npm ci`
 * filled it), so a slow registry does not slow the walk; it still asks the
 * registry for what the cache lacks.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key.startsWith('npm_') || key.startsWith('LOADRACE_') || key.startsWith('GITHUB_')) delete env[key]
  }
  for (const key of ['NODE_OPTIONS', 'FORCE_COLOR', 'NO_COLOR', 'CI', 'INIT_CWD']) delete env[key]
  env.PATH = (env.PATH ?? '').split(delimiter).filter(entry => !entry.includes(`${sep}node_modules${sep}.bin`)).join(delimiter)
  const npm = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }
  return { ...env, ...npm, LOADRACE_HEARTBEAT_MS: '0', ...extra }
}

/** The longest one command of the walk may take before it is stopped and reported (an install, the bundled sweep). */
const COMMAND_TIMEOUT_MS = 6 * 60_000

/** Runs a shell command line in `cwd`. */
export function shell(line: string, cwd: string, env: NodeJS.ProcessEnv = userEnv()): Promise<ShellRun> {
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    // A command that hangs is stopped, with its whole process group, and reported as such.
    const timer = setTimeout(() => {
      stderr += `\n(stopped after ${COMMAND_TIMEOUT_MS / 60_000} minutes)\n`
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // It ended meanwhile.
      }
    }, COMMAND_TIMEOUT_MS)
    child.on('error', fail)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    })
  })
}

/** Every `npx loadrace replay …` command in a sweep's output. */
function printedReplays(stdout: string): string[] {
  return [...stdout.matchAll(/^ {4}replay \([^)]*\): (npx loadrace replay .+)$/gm)].map(match => match[1]!)
}

/** How to follow a README section. */
export interface Follow {
  /** The folder the first command runs in; a `cd` moves on from there. */
  cwd: string
  /** Text of a command replaced before it runs (`<loadrace repository>` → a URL), longest first. */
  substitute?: Readonly<Record<string, string>>
  /** Called with each command run and what it printed (after the checks). */
  onRun?: (line: string, run: ShellRun) => void
}

/**
 * Runs a README section's steps. A command that prints replay commands has
 * each of them run right away, as a user would paste it, which must print
 * one of the hashes the sweep's report.json lists. Returns the command lines
 * run, as the README shows them, and the folder the last one ran in.
 */
export async function follow(steps: readonly Step[], options: Follow): Promise<{ ran: string[], cwd: string }> {
  let cwd = options.cwd
  const ran: string[] = []
  const substitutions = Object.entries(options.substitute ?? {}).sort(([a], [b]) => b.length - a.length)
  for (const step of steps) {
    if (step.kind === 'file') {
      await mkdir(dirname(join(cwd, step.path)), { recursive: true })
      await writeFile(join(cwd, step.path), step.content)
      continue
    }
    ran.push(step.line)
    const line = substitutions.reduce((text, [from, to]) => text.replaceAll(from, to), step.line)
    const moved = /^cd (\S+)$/.exec(line)
    if (moved) {
      cwd = resolve(cwd, moved[1]!)
      continue
    }
    const run = await shell(line, cwd)
    const said = `${step.line}\n(in ${cwd})\n${run.stdout}${run.stderr}`
    expect(run.code, said).toBe(step.exit)
    expect(missingLines(step.output, run.stdout), `${step.line} printed:\n${run.stdout}`).toEqual([])
    options.onRun?.(step.line, run)
    const replays = printedReplays(run.stdout)
    if (replays.length === 0) continue
    const report = JSON.parse(await readFile(join(cwd, 'reports', 'latest', 'report.json'), 'utf8')) as Report
    const hashes = new Set(report.scenarios.flatMap(scenario => scenario.outputs.map(output => output.hash)))
    for (const replay of replays) {
      const replayed = await shell(replay, cwd)
      expect(replayed.code, `${replay}\n${replayed.stderr}`).toBe(0)
      expect(hashes.has(/\nhash: ([0-9a-f]{64})\n$/.exec(replayed.stdout)?.[1] ?? ''), replay).toBe(true)
    }
  }
  return { ran, cwd }
}

/**
 * A git repository holding this working tree as it is (tracked files and new
 * ones git does not ignore), committed once: what a user would clone.
 * Resolves to its folder.
 */
export async function repositoryOfWorkingTree(): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'loadrace-repository-'))
  const { stdout } = await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: CHECKOUT, maxBuffer: 1 << 26 })
  for (const file of new Set(stdout.split('\0').filter(Boolean))) {
    const from = join(CHECKOUT, file)
    await mkdir(dirname(join(repo, file)), { recursive: true })
    await copyFile(from, join(repo, file)).catch((error: NodeJS.ErrnoException) => { if (error.code !== 'ENOENT') throw error })
  }
  const git = (...args: string[]) => exec('git', args, { cwd: repo, env: { ...userEnv(), GIT_AUTHOR_NAME: 'loadrace', GIT_AUTHOR_EMAIL: 'loadrace@localhost', GIT_COMMITTER_NAME: 'loadrace', GIT_COMMITTER_EMAIL: 'loadrace@localhost' } })
  await git('init', '--quiet')
  await git('add', '--all')
  await git('commit', '--quiet', '--message', 'loadrace')
  return repo
}

/** The scripts npm runs at install in a project that depends on a package: none of them may be in loadrace's. */
export const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'] as const

/** The install-time scripts of the loadrace installed in `project`. */
export async function installScriptsOf(project: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(project, 'node_modules', 'loadrace', 'package.json'), 'utf8')) as { scripts?: Record<string, string> }
  return INSTALL_SCRIPTS.filter(name => manifest.scripts?.[name] !== undefined)
}
