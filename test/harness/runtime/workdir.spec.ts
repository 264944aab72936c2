/**
 * Every interleaving runs in its own temporary folder: working directory,
 * home, the scenario's `env:`, all in force from before the base composition
 * mounts until the interleaving ends, then undone and removed.
 */
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isolate } from '../../../harness/runtime/workdir.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { runCli } from '../../support/cli.ts'

afterAll(removeFixtureDirs)

const OPTIONS = { strategy: 'exhaustive' as const, budget: 100, seed: '0', workers: 1 }

/**
 * A plugin that keeps a counter in a file of its working directory: it reads
 * what an earlier run left there, and names its tool after it. Run in one
 * shared folder, every interleaving would see a higher count.
 */
const FILE_STATE = `import { existsSync, readFileSync, writeFileSync } from 'node:fs'
export default {
  name: 'file-state',
  inject: ['tools'],
  apply(ctx) {
    const seen = existsSync('state.txt') ? Number(readFileSync('state.txt', 'utf8')) : 0
    writeFileSync('state.txt', String(seen + 1))
    ctx.tools.register({ name: 'seen_' + seen, description: 'home ' + (process.env.HOME === process.cwd().replace(/cwd$/, 'home')) + ', flavour ' + process.env.LOADRACE_TEST_FLAVOUR, parameters: { type: 'object', properties: {} } })
  },
}
`

const SCENARIO = `name: file-state
app: none
env:
  LOADRACE_TEST_FLAVOUR: mint
plugins:
  - id: tool-a
    tools: [a]
  - id: state
    module: ./state.mjs
expect:
  outcome: completed
  header:
    - a
    - { name: seen_0, description: 'home true, flavour mint' }
`

describe('the isolation of one interleaving', () => {
  it('moves the process into a fresh folder with its own home and the given variables, and undoes all of it', () => {
    const before = { cwd: process.cwd(), home: process.env.HOME, flavour: process.env.LOADRACE_TEST_FLAVOUR }
    const isolation = isolate({ LOADRACE_TEST_FLAVOUR: 'mint' })
    const { workdir } = isolation
    expect(realpathSync(process.cwd())).toBe(realpathSync(workdir.cwd))
    expect(process.env.HOME).toBe(workdir.home)
    expect(process.env.LOADRACE_TEST_FLAVOUR).toBe('mint')
    expect(workdir.cwd.startsWith(workdir.root) && workdir.home.startsWith(workdir.root)).toBe(true)
    expect(isolation.end(false)).toBeUndefined()
    expect(process.cwd()).toBe(before.cwd)
    expect(process.env.HOME).toBe(before.home)
    expect(process.env.LOADRACE_TEST_FLAVOUR).toBe(before.flavour)
    expect(existsSync(workdir.root)).toBe(false)
  })

  it('removes the folder whatever the system left in its working directory and home', () => {
    const isolation = isolate({})
    const { workdir } = isolation
    mkdirSync(join(workdir.cwd, 'nested'))
    writeFileSync(join(workdir.cwd, 'nested', 'file.txt'), 'left behind')
    writeFileSync(join(workdir.home, '.rc'), 'left behind')
    writeFileSync(join(workdir.root, 'beside.txt'), 'left behind')
    expect(isolation.end(false)).toBeUndefined()
    expect(existsSync(workdir.root)).toBe(false)
    // Only the home written to: the working directory went with one rmdir, the rest recursively.
    const second = isolate({})
    writeFileSync(join(second.workdir.home, '.rc'), 'left behind')
    expect(second.end(false)).toBeUndefined()
    expect(existsSync(second.workdir.root)).toBe(false)
  })

  it('keeps the folder when asked, and says where', () => {
    const isolation = isolate({})
    const kept = isolation.end(true)
    expect(kept).toBe(isolation.workdir.root)
    expect(existsSync(join(kept!, 'cwd'))).toBe(true)
  })

  it('copies seed folders into the working directory and adds the target\'s variables', async () => {
    const dir = await fixtureDir()
    await dir.write('seed/notes.txt', 'seeded')
    const isolation = isolate({}, workdir => ({ env: { LOADRACE_TEST_ROOT: workdir.root }, seed: [join(dir.root, 'seed')] }))
    try {
      expect(readdirSync(isolation.workdir.cwd)).toEqual(['notes.txt'])
      expect(process.env.LOADRACE_TEST_ROOT).toBe(isolation.workdir.root)
    } finally {
      isolation.end(false)
    }
  })
})

describe('interleavings in folders of their own', () => {
  it('keep a plugin that writes a file in its working directory deterministic, in process and in worker processes, leaving nothing behind', async () => {
    const dir = await fixtureDir()
    await dir.write('state.mjs', FILE_STATE)
    const scenario = await loadScenario(await dir.write('state.yml', SCENARIO))
    const cwd = readdirSync(process.cwd())
    for (const runner of [inProcessRunner(), workerPool({ size: 2 })]) {
      try {
        const report = await sweepScenario(scenario, OPTIONS, { runner })
        expect(report.problems).toEqual([])
        expect(report).toMatchObject({ verdict: 'deterministic', passed: true, explored: 2 })
      } finally {
        await runner.close()
      }
    }
    expect(readdirSync(process.cwd())).toEqual(cwd)
    expect(readdirSync(dir.root).sort()).toEqual(['state.mjs', 'state.yml'])
  })

  it('gives a cordis.yml\'s !!js expressions the scenario\'s variables and the interleaving\'s working directory', async () => {
    const dir = await fixtureDir()
    await dir.write('app/plugins/tool.mjs', `export const name = 'config-tool'\nexport const inject = ['tools']\nexport function apply(ctx, config) {\n  ctx.tools.register({ name: config.tool, description: config.where, parameters: { type: 'object', properties: {} } })\n}\n`)
    await dir.write('app/cordis.yml', `- id: tool\n  name: ./plugins/tool.mjs\n  config:\n    tool: !!js process.env.LOADRACE_TEST_TOOL\n    where: !!js "process.cwd().endsWith('/cwd') ? 'in its own folder' : process.cwd()"\n`)
    const scenario = await loadScenario(await dir.write('s.yml', 'app: none\nentries: ./app/cordis.yml\nenv: { LOADRACE_TEST_TOOL: from_env }\nexpect:\n  outcome: completed\n  header: [{ name: from_env, description: in its own folder }]\n'))
    const report = await sweepScenario(scenario, OPTIONS, { runner: inProcessRunner() })
    expect(report.problems).toEqual([])
    expect(report.passed).toBe(true)
  })

  it('removes each interleaving\'s folder unless one whose outcome is not the expected one is kept on request', async () => {
    const dir = await fixtureDir()
    const scenario = await loadScenario(await dir.write('s.yml', 'app: none\nplugins:\n  - { id: tool-a, tools: [a] }\n  - { id: broken, fault: apply-throws }\nexpect: { outcome: completed }\n'))
    const written: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    process.stderr.write = ((text: string) => { written.push(String(text)); return true }) as typeof process.stderr.write
    try {
      await runInterleaving(scenario, referenceTarget, ['tool-a', 'broken'])
      expect(written).toEqual([])
      await runInterleaving(scenario, referenceTarget, ['tool-a', 'broken'], { keepWorkdir: true })
    } finally {
      process.stderr.write = write
    }
    expect(written).toHaveLength(1)
    const kept = /: (\/\S+)\n$/.exec(written[0]!)?.[1]
    expect(written[0]).toMatch(/^loadrace: kept the working folder of an interleaving of s \(outcome load-error, released tool-a,broken\): /)
    expect(existsSync(join(kept!, 'cwd'))).toBe(true)
  })

  it('are kept by sweep --keep-workdirs in worker processes too, for the interleavings whose outcome is not the expected one', async () => {
    const dir = await fixtureDir()
    await dir.write('s.yml', 'app: none\nplugins:\n  - { id: tool-a, tools: [a] }\n  - { id: broken, fault: apply-throws }\nexpect: { outcome: completed }\n')
    const run = await runCli(['sweep', 's.yml', '--keep-workdirs', '--workers', '2', '--report', 'r'], { cwd: dir.root })
    expect(run.code).toBe(1)
    const kept = [...run.stderr.matchAll(/^loadrace: kept the working folder of an interleaving of s \(outcome load-error, released [a-z,-]+\): (\S+)$/gm)].map(match => match[1]!)
    // Two explored interleavings, the discovery run and the reruns: each kept, each its own folder.
    expect(kept.length).toBeGreaterThanOrEqual(2)
    expect(new Set(kept).size).toBe(kept.length)
    for (const folder of kept) expect(existsSync(join(folder, 'cwd'))).toBe(true)
  })
})
