/**
 * `loadrace snapshots`: a scenario file per dsh snapshot folder, on the replay
 * configuration the suite's table names, so a dsh developer sweeps the
 * snapshot suite without writing YAML.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../../harness/cli/main.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
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
    expect(pty).toContain('target: dsh\napp: entries\nentries: ../pty.cordis.snapshot.yml\nsnapshot: ../tests/snapshots/pty-tools\nenv:\n  DSH_PERMISSION_MODE: read-only\nbudget: 24\nexpect:\n  outcome: completed\n  snapshot: holds\n')
    expect(readFileSync(join(app, 'loadrace/text-turn.yml'), 'utf8')).toContain('entries: ../cordis.snapshot.yml\n')
    const scenario = await loadScenario(join(app, 'loadrace/pty-tools.yml'))
    expect(scenario).toMatchObject({ name: 'pty-tools', app: 'entries', target: 'dsh', env: { DSH_PERMISSION_MODE: 'read-only' }, snapshot: join(app, 'tests/snapshots/pty-tools'), expect: { snapshot: 'holds', deterministic: true } })
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
    expect(readFileSync(join(dir.root, 'elsewhere/text-turn.yml'), 'utf8')).toContain('entries: ../app/cordis.snapshot.yml\nsnapshot: ../app/tests/snapshots/text-turn\nbudget: 8\n')
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
