/**
 * dsh as its developers have it: the 0.1.1-rc.2 workspace `.ci/build-dsh`
 * builds into build/dsh/ (its vendored cordis, loader and include, its
 * packages at HEAD), its unmodified snapshot configurations as the whole
 * system under test, and its own snapshot suite as the oracle. Runs on Node
 * 22, dsh's runtime. Without the built workspace (run `bash .ci/build-dsh`),
 * these specs are skipped, saying so; CI builds it before the tests.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { parseHost } from '../../../harness/hosts/host.ts'
import { runnersFor } from '../../../harness/runners/by-host.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const TREE = join(ROOT, 'build/dsh/deepseek-harness')
const APP = join(TREE, 'examples/acp-agent')
const BUILT = existsSync(join(ROOT, 'build/dsh/.stamp'))
if (!BUILT) console.warn('dsh-workspace.spec: build/dsh is not built (bash .ci/build-dsh builds it); skipping the specs on dsh 0.1.1-rc.2')

const node22 = parseHost('node22')
const runners = runnersFor({ workers: 1 })

afterAll(async () => {
  await runners.close()
  await removeFixtureDirs()
})

/** Every file under `dir` with its size and modification time, relative to it. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(entry => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name)
      const stats = statSync(path)
      return `${relative(dir, path)} ${stats.size} ${stats.mtimeMs}`
    })
    .sort()
}

/** Sweeps a scenario on the workspace's replay configuration `config` against the snapshot folder `snapshot`, on Node 22. */
async function sweepSnapshot(config: string, snapshot: string, budget: number, expected = 'holds'): Promise<ScenarioReport> {
  const dir = await fixtureDir()
  const file = await dir.write('s.yml', `name: probe\ntarget: dsh\napp: entries\nentries: ${join(APP, config)}\nsnapshot: ${snapshot}\nbudget: ${budget}\nexpect:\n  outcome: completed\n  snapshot: ${expected}\n`)
  const scenario = await loadScenario(file)
  return sweepScenario(scenario, { strategy: 'auto', budget, seed: '0', hosts: [node22], workers: 1 }, { runner: runners.of(node22), runners })
}

/** A copy of the workspace's snapshot `name` whose pinned file `file` is passed through `edit`. */
async function editedSnapshot(name: string, file: string, edit: (text: string) => string): Promise<string> {
  const dir = await fixtureDir()
  const copy = join(dir.root, name)
  cpSync(join(APP, 'tests/snapshots', name), copy, { recursive: true })
  const path = join(copy, file)
  const before = readFileSync(path, 'utf8')
  const after = edit(before)
  expect(after).not.toBe(before)
  writeFileSync(path, after)
  return copy
}

/** Sweeps the live `cordis.yml` of the ACP agent (its DeepSeek adapter entry and all), with `extra` keys, on Node 22. */
async function sweepLive(extra: string, outcome: string, budget = 2): Promise<ScenarioReport> {
  const dir = await fixtureDir()
  const file = await dir.write('live.yml', `name: live\ntarget: dsh\napp: entries\nentries: ${join(APP, 'cordis.yml')}\n${extra}budget: ${budget}\nexpect:\n  outcome: ${outcome}\n`)
  return sweepScenario(await loadScenario(file), { strategy: 'auto', budget, seed: '0', hosts: [node22], workers: 1 }, { runner: runners.of(node22), runners })
}

describe.skipIf(!BUILT)('dsh 0.1.1-rc.2 from its repository', { timeout: 240_000 }, () => {
  it('runs the live ACP configuration with loadrace\'s scripted model in place of its DeepSeek adapter entry; without it the turn fails for want of a key, never reaching a network', async () => {
    const scripted = await sweepLive('model:\n  replaces: llm-deepseek\n  providers: [deepseek-official]\n  models: [deepseek-v4-flash, deepseek-v4-pro]\n', 'completed')
    expect(scripted.problems).toEqual([])
    expect(scripted).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
    expect(scripted.outputs[0]!.tools).toContain('bash')
    const live = await sweepLive('', 'turn-error\n  error: \'llm-deepseek: no API key for provider route "deepseek-official"\'')
    expect(live).toMatchObject({ verdict: 'deterministic', outcome: 'turn-error', passed: true })
  })

  it('runs the unmodified text-turn configuration on the workspace\'s own cordis 4.0.1 and packages, and its snapshot holds', async () => {
    const report = await sweepSnapshot('cordis.snapshot.yml', join(APP, 'tests/snapshots/text-turn'), 6)
    expect(report.problems).toEqual([])
    expect(report).toMatchObject({ verdict: 'deterministic', passed: true, snapshot: { status: 'holds', matching: { interleavings: 6 } } })
    const packages = report.runtime?.system?.packages ?? []
    expect(report.runtime?.system?.own).toBe(false)
    expect(packages.find(item => item.name === '@deepseek-ai/cordis')).toEqual({ name: '@deepseek-ai/cordis', version: '4.0.1', path: join(TREE, 'vendor/cordis') })
    expect(packages.find(item => item.name === '@deepseek-ai/cordis-plugin-loader')?.version).toBe('1.0.2')
    expect(packages.filter(item => item.name.startsWith('@deepseek-ai/dsh-')).every(item => item.version === '0.1.1-rc.2' && item.path.startsWith(join(TREE, 'packages')))).toBe(true)
    expect(report.runtime?.node).toMatch(/^v22\./)
  })

  it('finds that pty-tools pins one load order: the two order-106 sections, the swap that turns one into the other, and the fix', async () => {
    const report = await sweepSnapshot('pty.cordis.snapshot.yml', join(APP, 'tests/snapshots/pty-tools'), 12, 'pins-one')
    expect(report.problems).toEqual([])
    const snapshot = report.snapshot!
    expect(snapshot.status).toBe('pins-one')
    expect(snapshot.matching.interleavings).toBeGreaterThan(0)
    expect(snapshot.mismatching.interleavings).toBeGreaterThan(0)
    expect(snapshot.moved?.map(item => `${item.name} ${item.owner}${item.plugin ? ` ${item.plugin}` : ''}`).sort()).toEqual(['tool:jobs base.acp-agent tool-jobs', 'tool:pty base.tool-terminal'])
    expect(snapshot.fix).toMatch(/^give tool:(pty|jobs) .* distinct order values: both are order 106/)
    expect(snapshot.sections).toMatch(/-\[106\] tool:pty \(base\.tool-terminal\)\n( \[106\] tool:jobs .*\n)\+\[106\] tool:pty/)
    expect(snapshot.tokens).toHaveLength(2)
  })

  it('can fail: a pinned file edited the way a load order would change it moves the status as the edit predicts', async () => {
    // Two tools swapped in text-turn's pinned schemas: no load order gives that header.
    const swappedTools = await editedSnapshot('text-turn', 'tool-schemas.expected.json', (text) => {
      const pinned = JSON.parse(text) as { initial: { name: string }[], changes: unknown[] }
      ;[pinned.initial[0], pinned.initial[1]] = [pinned.initial[1]!, pinned.initial[0]!]
      return `${JSON.stringify(pinned, null, 2)}\n`
    })
    const none = await sweepSnapshot('cordis.snapshot.yml', swappedTools, 4, 'matches-none')
    expect(none.problems).toEqual([])
    expect(none.snapshot).toMatchObject({ status: 'matches-none', matching: { interleavings: 0 }, mismatching: { interleavings: 4 } })
    expect(none.snapshot?.differs?.map(item => item.file)).toEqual(['tool-schemas.expected.json'])
    // The two tied sections swapped in pty-tools' pinned prompt: the interleavings that matched no longer do, and the others do.
    const original = await sweepSnapshot('pty.cordis.snapshot.yml', join(APP, 'tests/snapshots/pty-tools'), 12, 'pins-one')
    const swappedSections = await editedSnapshot('pty-tools', 'system-prompt.expected.md', (text) => {
      const paragraphs = text.split('\n\n')
      const pty = paragraphs.findIndex(paragraph => paragraph.startsWith('Use a terminal session only when'))
      const jobs = paragraphs.findIndex(paragraph => paragraph.startsWith('Track every background job id you start'))
      ;[paragraphs[pty], paragraphs[jobs]] = [paragraphs[jobs]!, paragraphs[pty]!]
      return paragraphs.join('\n\n')
    })
    const flipped = await sweepSnapshot('pty.cordis.snapshot.yml', swappedSections, 12, 'pins-one')
    expect(flipped.snapshot?.status).toBe('pins-one')
    expect(flipped.snapshot?.matching.interleavings).toBe(original.snapshot?.mismatching.interleavings)
    expect(flipped.snapshot?.mismatching.interleavings).toBe(original.snapshot?.matching.interleavings)
  })

  it('writes nothing into the workspace or the working directory: each interleaving had its own temporary folder', async () => {
    const before = { app: listing(APP), cwd: readdirSync(process.cwd()).sort() }
    const report = await sweepSnapshot('cordis.snapshot.yml', join(APP, 'tests/snapshots/text-turn'), 2)
    expect(report.passed).toBe(true)
    expect(listing(APP)).toEqual(before.app)
    expect(readdirSync(process.cwd()).sort()).toEqual(before.cwd)
  })
})
