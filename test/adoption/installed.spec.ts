/**
 * loadrace as another project gets it: this checkout packed with `npm pack`,
 * the tarball installed into a fresh temporary project (with vitest), and the
 * README's quick start and plugin guide followed there — every file they
 * show written, every command they show run, its exit code and the output
 * they show checked — plus the bin, plain-Node imports, the type
 * declarations, and every replay command a sweep prints there.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../harness/report/types.ts'
import { missingLines, sectionOf, stepsOf, type Step } from '../support/readme-steps.ts'

const exec = promisify(execFile)
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url))
const MINUTES = 60_000

/** The checkout's own package.json: the vitest and vite the temporary project installs beside the tarball. */
const manifest = JSON.parse(await readFile(join(CHECKOUT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }

let work: string
let project: string
let tarball: string

/** The environment of a command in the project: the test's own, without vitest's markers, CI unset unless the command sets it. */
function projectEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '', GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '', LOADRACE_HEARTBEAT_MS: '0' }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key === 'FORCE_COLOR' || key === 'NO_COLOR') delete env[key]
  return env
}

/** Runs a shell command line in the project. */
function shell(line: string): Promise<{ code: number | null, stdout: string, stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', line], { cwd: project, env: projectEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    child.on('error', reject)
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

/** Every `npx loadrace replay …` command in a sweep's output. */
function printedReplays(stdout: string): string[] {
  return [...stdout.matchAll(/^ {4}replay \([^)]*\): (npx loadrace replay .+)$/gm)].map(match => match[1]!)
}

/**
 * Runs a README section's steps in the project. A command that prints replay
 * commands has each of them run right away (as a user would paste it), which
 * must print one of the hashes the sweep's report.json lists.
 */
async function follow(steps: readonly Step[]): Promise<string[]> {
  const ran: string[] = []
  for (const step of steps) {
    if (step.kind === 'file') {
      await mkdir(dirname(join(project, step.path)), { recursive: true })
      await writeFile(join(project, step.path), step.content)
      continue
    }
    // The tarball stands in for the registry's loadrace; vitest is installed beside it.
    if (/^npm (i|install)\b/.test(step.line)) continue
    const run = await shell(step.line)
    ran.push(step.line)
    expect(run.code, `${step.line}\n${run.stdout}${run.stderr}`).toBe(step.exit)
    expect(missingLines(step.output, run.stdout), `${step.line} printed:\n${run.stdout}`).toEqual([])
    const replays = printedReplays(run.stdout)
    if (replays.length === 0) continue
    const report = JSON.parse(await readFile(join(project, 'reports', 'latest', 'report.json'), 'utf8')) as Report
    const hashes = new Set(report.scenarios.flatMap(scenario => scenario.outputs.map(output => output.hash)))
    for (const replay of replays) {
      const replayed = await shell(replay)
      expect(replayed.code, `${replay}\n${replayed.stderr}`).toBe(0)
      expect(hashes.has(/\nhash: ([0-9a-f]{64})\n$/.exec(replayed.stdout)?.[1] ?? ''), replay).toBe(true)
      ran.push(replay)
    }
  }
  return ran
}

const readme = await readFile(join(CHECKOUT, 'README.md'), 'utf8')

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'loadrace-adoption-'))
  project = join(work, 'project')
  await mkdir(project)
  await exec('npm', ['pack', '--silent', '--pack-destination', work], { cwd: CHECKOUT, env: projectEnv(), maxBuffer: 1 << 24 })
  tarball = join(work, (await readdir(work)).find(name => name.endsWith('.tgz'))!)
  await writeFile(join(project, 'package.json'), '{"name":"adopter","private":true,"type":"module"}\n')
  const { vitest, vite } = manifest.devDependencies
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball, `vitest@${vitest}`, `vite@${vite}`], { cwd: project, env: projectEnv(), maxBuffer: 1 << 24 })
}, 8 * MINUTES)

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe('the packed package', () => {
  it('holds the build, the bin and the README, and nothing of test/, bench/, scenarios/ or goldens/', async () => {
    const { stdout } = await exec('tar', ['tzf', tarball], { maxBuffer: 1 << 24 })
    const files = stdout.trim().split('\n').map(file => file.replace(/^package\//, ''))
    for (const file of ['package.json', 'README.md', 'bin/loadrace.js', 'dist/harness/index.js', 'dist/harness/index.d.ts', 'dist/harness/vitest.js', 'dist/harness/vitest.d.ts', 'dist/harness/runners/worker-bootstrap.js']) {
      expect(files).toContain(file)
    }
    expect(files.filter(file => /^(test|bench|scenarios|goldens|harness|src|reports)\//.test(file))).toEqual([])
    const installed = JSON.parse(await readFile(join(project, 'node_modules', 'loadrace', 'package.json'), 'utf8')) as { private?: boolean, exports: Record<string, unknown> }
    expect(installed.private).toBeUndefined()
    expect(installed.exports['.']).toEqual({ types: './dist/harness/index.d.ts', default: './dist/harness/index.js' })
    expect(installed.exports['./vitest']).toEqual({ types: './dist/harness/vitest.d.ts', default: './dist/harness/vitest.js' })
  })

  it('its bin runs after the install, with no other step', async () => {
    const run = await shell('npx loadrace --version')
    expect(run.stdout).toBe(`loadrace ${(JSON.parse(await readFile(join(CHECKOUT, 'package.json'), 'utf8')) as { version: string }).version}\n`)
  })

  it('plain Node imports loadrace and loadrace/vitest', async () => {
    const script = "const api = await import('loadrace'); const helpers = await import('loadrace/vitest'); console.log(typeof api.sweep, typeof api.loadScenarios, typeof helpers.expectScenario, typeof helpers.loadraceMatchers.toPassLoadrace)"
    const run = await shell(`node --input-type=module -e "${script}"`)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('function function function function\n')
  })
})

describe('the README, followed in the project', () => {
  it('the quick start: a scenario, a sweep that pins its golden, the same sweep under CI, vitest, plain Node', async () => {
    const ran = await follow(stepsOf(sectionOf(readme, 'Quick start')))
    expect(ran).toEqual(['npx loadrace sweep', 'CI=true npx loadrace sweep', 'npx vitest run', 'node sweep.mjs'])
  }, 4 * MINUTES)

  it('the plugin guide: the race found and blamed, its printed replay commands, the fix, dsh, the folder green under CI', async () => {
    const ran = await follow(stepsOf(sectionOf(readme, 'Writing a plugin, and finding its races')))
    expect(ran.filter(line => line.startsWith('npx loadrace replay') && line.includes('--scenarios scenarios/summarize.yml'))).toHaveLength(3)
    expect(ran.at(-1)).toBe('CI=true npx loadrace sweep')
  }, 4 * MINUTES)

  it('its TypeScript files type-check against the published declarations', async () => {
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        typeRoots: [join(CHECKOUT, 'node_modules', '@types')],
      },
      include: ['plugins', 'test'],
    }))
    const run = await shell(`node ${JSON.stringify(join(CHECKOUT, 'node_modules', 'typescript', 'bin', 'tsc'))} -p .`)
    expect(run.stdout + run.stderr).toBe('')
    expect(run.code).toBe(0)
  }, 2 * MINUTES)
})
