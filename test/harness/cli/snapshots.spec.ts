/**
 * `loadrace snapshots`: a scenario file per dsh snapshot folder, on the replay
 * configuration the suite's table names, so a dsh developer sweeps the
 * snapshot suite without writing YAML.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../../harness/cli/main.ts'
import type { Exploration } from '../../../harness/explore/exploration.ts'
import { judgeSnapshot } from '../../../harness/judge/snapshot.ts'
import type { RunCache } from '../../../harness/runners/run-cache.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { captured, inDir } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const STEPS = JSON.stringify({ steps: [{ op: 'initialize' }, { op: 'newSession' }, { op: 'prompt', text: 'hi' }] })
const GROUP = '- id: tools\n  name: cordis:group\n  config: []\n'

/** An app folder as dsh's examples/acp-agent lays it out: configurations, tests/acp.snapshot.ts, tests/snapshots/. */
async function suite(dir: FixtureDir): Promise<string> {
  for (const config of ['cordis.yml', 'cordis.snapshot.yml', 'pty.cordis.yml', 'pty.cordis.snapshot.yml', 'lonely.cordis.yml']) await dir.write(`app/${config}`, GROUP)
  await dir.write('app/tests/acp.snapshot.ts', `const PTY_CONFIG = fileURLToPath(new URL('../pty.cordis.yml', import.meta.url))
const LONELY_CONFIG = fileURLToPath(new URL('../lonely.cordis.yml', import.meta.url))
export const SCENARIOS = [
  { name: 'text-turn' },
  { name: 'pty-tools', configPath: PTY_CONFIG, env: { DSH_PERMISSION_MODE: 'read-only' } },
  { name: 'lonely', configPath: LONELY_CONFIG },
]
`)
  const pinned = { 'input.json': STEPS, 'session.jsonl': '{}\n', 'tool-schemas.expected.json': '{}\n', 'system-prompt.expected.md': 'p\n' }
  for (const name of ['text-turn', 'pty-tools', 'lonely']) for (const [file, text] of Object.entries(pinned)) await dir.write(`app/tests/snapshots/${name}/${file}`, text)
  await dir.write('app/tests/snapshots/unpinned/input.json', STEPS)
  await dir.write('app/tests/snapshots/unpinned/session.jsonl', '{}\n')
  return join(dir.root, 'app')
}

describe('loadrace snapshots', () => {
  it('writes one scenario per snapshot that pins a header, on its replay configuration and variables, and lists the others with why', async () => {
    const dir = await fixtureDir()
    const app = await suite(dir)
    const out = captured()
    expect(await inDir(dir.root, () => main(['snapshots', 'app/tests/snapshots'], out.cli))).toBe(0)
    expect(out.stdout()).toBe([
      'wrote app/loadrace/pty-tools.yml (app/tests/snapshots/pty-tools)',
      'wrote app/loadrace/text-turn.yml (app/tests/snapshots/text-turn)',
      'skipped lonely: its configuration ' + join(app, 'lonely.cordis.yml') + ' has no replay configuration beside it (lonely.cordis.snapshot.yml)',
      'skipped unpinned: app/tests/snapshots/unpinned has no tool-schemas.expected.json (the pinned tool schemas: this snapshot pins no header)',
      '2 scenario files written, 2 snapshots skipped',
      'sweep them: loadrace sweep app/loadrace',
      '',
    ].join('\n'))
    const pty = readFileSync(join(app, 'loadrace/pty-tools.yml'), 'utf8')
    expect(pty).toContain('target: dsh\napp: entries\nentries: ../pty.cordis.snapshot.yml\nsnapshot: ../tests/snapshots/pty-tools\nprocess: fresh\nenv:\n  DSH_PERMISSION_MODE: read-only\nbudget: 24\nexpect:\n  outcome: completed\n  snapshot: holds\n')
    expect(readFileSync(join(app, 'loadrace/text-turn.yml'), 'utf8')).toContain('entries: ../cordis.snapshot.yml\n')
    const scenario = await loadScenario(join(app, 'loadrace/pty-tools.yml'))
    expect(scenario).toMatchObject({ name: 'pty-tools', app: 'entries', target: 'dsh', process: 'fresh', env: { DSH_PERMISSION_MODE: 'read-only' }, snapshot: join(app, 'tests/snapshots/pty-tools'), expect: { snapshot: 'holds', deterministic: true } })
  })

  it('overwrites nothing without --force, writing nothing at all, and overwrites with it', async () => {
    const dir = await fixtureDir()
    const app = await suite(dir)
    await dir.write('app/loadrace/text-turn.yml', '# mine\n')
    const out = captured()
    expect(await inDir(dir.root, () => main(['snapshots', 'app/tests/snapshots', '--budget', '8'], out.cli))).toBe(2)
    expect(out.stderr()).toBe('loadrace snapshots: app/loadrace/text-turn.yml exists (give --force to overwrite it)\n')
    expect(existsSync(join(app, 'loadrace/pty-tools.yml'))).toBe(false)
    expect(await inDir(dir.root, () => main(['snapshots', 'app/tests/snapshots', '--budget', '8', '--force', '--out', 'elsewhere'], captured().cli))).toBe(0)
    expect(readFileSync(join(dir.root, 'elsewhere/text-turn.yml'), 'utf8')).toContain('entries: ../app/cordis.snapshot.yml\nsnapshot: ../app/tests/snapshots/text-turn\nprocess: fresh\nbudget: 8\n')
    expect(await inDir(dir.root, () => main(['snapshots', 'app/tests/snapshots', '--force'], captured().cli))).toBe(0)
    expect(readFileSync(join(app, 'loadrace/text-turn.yml'), 'utf8')).not.toBe('# mine\n')
  })

  it('exits 2 for a folder without snapshots, and 1 when no snapshot pins a header', async () => {
    const dir = await fixtureDir()
    await suite(dir)
    const none = captured()
    expect(await inDir(dir.root, () => main(['snapshots', 'app'], none.cli))).toBe(2)
    expect(none.stderr()).toBe('loadrace snapshots: app: no snapshot folder here (a folder holding input.json, or a folder of them)\n')
    const unpinned = captured()
    expect(await inDir(dir.root, () => main(['snapshots', 'app/tests/snapshots/unpinned'], unpinned.cli))).toBe(1)
    expect(unpinned.stdout()).toMatch(/^skipped unpinned: .* pins no header\)\n0 scenario files written, 1 snapshot skipped\n$/)
  })
})

const TOOLS = [{ name: 'read', description: 'reads', parameters: {} }]

/** A suite as dsh's table lays out header classes: text-turn pins the default class; fs-read is its classmate; pwsh-turn pins its own class on a host with pwsh. */
async function classSuite(dir: FixtureDir): Promise<string> {
  for (const config of ['cordis.yml', 'cordis.snapshot.yml', 'pwsh.cordis.yml', 'pwsh.cordis.snapshot.yml']) await dir.write(`app/${config}`, GROUP)
  await dir.write('app/tests/acp.snapshot.ts', `const PWSH_CONFIG = fileURLToPath(new URL('../pwsh.cordis.yml', import.meta.url))
const SCENARIOS: Scenario[] = [
  { name: 'text-turn', hasModelTurn: true, recorded: true, pinsHeader: true },
  { name: 'fs-read', hasModelTurn: true, recorded: true },
  {
    name: 'pwsh-turn',
    hasModelTurn: true,
    pinsHeader: true,
    headerClass: 'pwsh',
    configPath: PWSH_CONFIG,
    // hosts without a usable \`pwsh\` skip the run
    pwshOnly: true,
  },
  { name: 'orphan', headerClass: 'nobody' },
]
`)
  const pinned = { 'tool-schemas.expected.json': `${JSON.stringify({ initial: TOOLS, changes: [] }, null, 2)}\n`, 'system-prompt.expected.md': 'pinned prompt\n' }
  for (const name of ['text-turn', 'fs-read', 'pwsh-turn', 'orphan']) {
    await dir.write(`app/tests/snapshots/${name}/input.json`, STEPS)
    await dir.write(`app/tests/snapshots/${name}/session.jsonl`, '{}\n')
  }
  for (const name of ['text-turn', 'pwsh-turn']) for (const [file, text] of Object.entries(pinned)) await dir.write(`app/tests/snapshots/${name}/${file}`, text)
  return join(dir.root, 'app')
}

/** An exploration whose one output logged a header with `system` and the pinned tools (none without `system`: a run with no model turn). */
function explored(system?: string): Exploration {
  const events = system === undefined ? [] : [{ type: 'request/header', data: { header: { system, tools: TOOLS }, reason: 'initial' } }]
  const first = { index: 0, schedule: ['a'], enabledAt: [0], unreached: [], hash: 'h', outcome: 'completed' as const, tools: ['read'], stuck: null }
  return { outputs: [{ hash: 'h', count: 3, first, json: JSON.stringify({ events }) }] } as unknown as Exploration
}

describe('loadrace snapshots on a table of header classes', () => {
  it('writes a classmate without pinned files of its own, judged against its class\'s pin; a pwshOnly snapshot requires pwsh', async () => {
    const dir = await fixtureDir()
    const app = await classSuite(dir)
    const out = captured()
    expect(await inDir(dir.root, () => main(['snapshots', 'app/tests/snapshots'], out.cli))).toBe(0)
    expect(out.stdout()).toBe([
      'wrote app/loadrace/fs-read.yml (app/tests/snapshots/fs-read)',
      'wrote app/loadrace/pwsh-turn.yml (app/tests/snapshots/pwsh-turn)',
      'wrote app/loadrace/text-turn.yml (app/tests/snapshots/text-turn)',
      'skipped orphan: no scenario of the table pins its header class "nobody"',
      '3 scenario files written, 1 snapshot skipped',
      'sweep them: loadrace sweep app/loadrace',
      '',
    ].join('\n'))
    expect(readFileSync(join(app, 'loadrace/fs-read.yml'), 'utf8')).toContain('snapshot: ../tests/snapshots/fs-read\nprocess: fresh\npinned:\n  systemPrompt: ../tests/snapshots/text-turn/system-prompt.expected.md\n  toolSchemas: ../tests/snapshots/text-turn/tool-schemas.expected.json\n  role: classmate\n')
    expect(readFileSync(join(app, 'loadrace/text-turn.yml'), 'utf8')).not.toContain('pinned:')
    expect(readFileSync(join(app, 'loadrace/pwsh-turn.yml'), 'utf8')).toContain('entries: ../pwsh.cordis.snapshot.yml\nsnapshot: ../tests/snapshots/pwsh-turn\nprocess: fresh\nrequires:\n  commands:\n    - pwsh\nbudget: 24\n')

    const member = await loadScenario(join(app, 'loadrace/fs-read.yml'))
    expect(member.pinned).toEqual({ role: 'classmate', systemPrompt: join(app, 'tests/snapshots/text-turn/system-prompt.expected.md'), toolSchemas: join(app, 'tests/snapshots/text-turn/tool-schemas.expected.json') })
    const cache = undefined as unknown as RunCache
    const holds = await judgeSnapshot(member, explored('pinned prompt'), cache)
    expect(holds).toMatchObject({ status: 'holds', matching: { interleavings: 3 }, mismatching: { interleavings: 0 } })
    const differs = await judgeSnapshot(member, explored('another prompt'), cache)
    expect(differs).toMatchObject({ status: 'matches-none', matching: { interleavings: 0 }, mismatching: { interleavings: 3 } })
    expect(differs?.differs?.map(item => item.file)).toEqual(['text-turn/system-prompt.expected.md'])
    expect(differs?.differs?.[0]?.diff).toContain('-pinned prompt\n+another prompt')
    // A classmate that logs no header (no model turn) has nothing to differ, as in dsh's guard.
    expect(await judgeSnapshot(member, explored(), cache)).toMatchObject({ status: 'holds' })
  })

  it('skips a scenario requiring a command that is not on PATH, and runs it where the command is', async () => {
    const dir = await fixtureDir()
    const app = await classSuite(dir)
    expect(await inDir(dir.root, () => main(['snapshots', 'app/tests/snapshots'], captured().cli))).toBe(0)
    const pwsh = await loadScenario(join(app, 'loadrace/pwsh-turn.yml'))
    expect(pwsh.requires).toEqual({ commands: ['pwsh'], platforms: [] })
    const absent: Scenario = { ...pwsh, requires: { commands: ['loadrace-no-such-command-7f3a'], platforms: [] } }
    const settings = { strategy: 'auto' as const, seed: '0', budget: 1, workers: 1 }
    const run = { runner: undefined as never }
    expect(await sweepScenario(absent, settings, run)).toMatchObject({ verdict: 'skipped', skipped: 'it requires loadrace-no-such-command-7f3a on PATH, and it is not found there', explored: 0 })
    // With the command on PATH the requirement is met: the sweep goes on to run it (here it fails at once, for want of a runner).
    const present: Scenario = { ...pwsh, process: undefined, requires: { commands: ['node'], platforms: [] } }
    await expect(sweepScenario(present, settings, run)).rejects.toThrow("reading 'runOne'")
  })
})
