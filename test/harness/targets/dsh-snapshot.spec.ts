/**
 * dsh's snapshot tier as loadrace reads it: a snapshot folder, the variables
 * dsh's harness sets for it, the scenario table of the suite, and the pinned
 * files an interleaving's session log would give after dsh's normalisations.
 */
import { delimiter, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pinDifferences, pinnedFormOf, readSnapshot, SNAPSHOT_NORMALISATIONS, snapshotEnvironment, snapshotPins, snapshotWorkspace, SnapshotError, type SnapshotPins } from '../../../harness/targets/dsh/snapshot.ts'
import { classPinOf, readSuiteTable, replayConfigOf, snapshotFoldersIn } from '../../../harness/targets/dsh/snapshot-suite.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const STEPS = JSON.stringify({ steps: [{ op: 'initialize' }, { op: 'newSession' }, { op: 'prompt', text: 'PONG?' }] })

/** A snapshot folder with `files` (the defaults: steps, a recorded session, both pinned files). */
async function snapshotFolder(files: Record<string, string | null> = {}) {
  const dir = await fixtureDir()
  const all = { 'input.json': STEPS, 'session.jsonl': '{}\n', 'tool-schemas.expected.json': '{}\n', 'system-prompt.expected.md': 'prompt\n', ...files }
  for (const [file, text] of Object.entries(all)) if (text !== null) await dir.write(`snap/${file}`, text)
  return join(dir.root, 'snap')
}

function header(system: string, tools: unknown[]) {
  return { type: 'request/header', data: { header: { config: {}, system, tools }, reason: 'initial' } }
}

describe('a snapshot folder', () => {
  it('is read whole: its steps, permission answers and pinned files', async () => {
    const dir = await snapshotFolder({ 'input.json': JSON.stringify({ steps: [{ op: 'initialize' }, { op: 'promptContent', content: [{ type: 'text', text: 'x' }] }], permissionAnswers: [{ kind: 'allow_once' }] }) })
    expect(readSnapshot(dir)).toMatchObject({
      name: 'snap',
      steps: [{ op: 'initialize' }, { op: 'promptContent', content: [{ type: 'text', text: 'x' }] }],
      permissionAnswers: [{ kind: 'allow_once' }],
      pinned: { toolSchemas: '{}\n', systemPrompt: 'prompt\n' },
    })
  })

  it('that lacks its recorded session, or drives a step loadrace does not drive, is refused saying which file', async () => {
    const cases: [Record<string, string | null>, RegExp][] = [
      [{ 'session.jsonl': null }, /has no session\.jsonl \(the recorded session the replay model serves\)$/],
      [{ 'input.json': '{ "steps": [{ "op": "waitForFile" }] }' }, /input\.json: step 1 is "waitForFile", which loadrace does not drive \(it drives initialize, newSession, prompt, promptContent\)$/],
      [{ 'input.json': 'not json' }, /input\.json is not JSON/],
    ]
    for (const [files, message] of cases) {
      const dir = await snapshotFolder(files)
      expect(() => readSnapshot(dir)).toThrow(SnapshotError)
      expect(() => readSnapshot(dir)).toThrow(message)
    }
    expect(() => readSnapshot('/nowhere/snap')).toThrow('no snapshot folder at /nowhere/snap')
  })

  it('that pins no header of its own is read, and judged only against pinned files named for it', async () => {
    for (const [missing, message] of [['tool-schemas.expected.json', /has no tool-schemas\.expected\.json \(the pinned tool schemas: this snapshot pins no header\)$/], ['system-prompt.expected.md', /has no system-prompt\.expected\.md/]] as const) {
      const dir = await snapshotFolder({ [missing]: null })
      expect(readSnapshot(dir).pinned).not.toHaveProperty(missing === 'tool-schemas.expected.json' ? 'toolSchemas' : 'systemPrompt')
      expect(() => snapshotPins(dir)).toThrow(message)
    }
    const own = await snapshotFolder()
    expect(snapshotPins(own)).toEqual({ role: 'pin', toolSchemas: { path: join(own, 'tool-schemas.expected.json'), text: '{}\n' }, systemPrompt: { path: join(own, 'system-prompt.expected.md'), text: 'prompt\n' } })
    expect(() => snapshotPins(own, { role: 'classmate', toolSchemas: join(own, 'gone.json'), systemPrompt: join(own, 'system-prompt.expected.md') })).toThrow(`no pinned tool schemas at ${join(own, 'gone.json')}`)
  })

  it('gets the variables dsh\'s snapshot harness sets: replay mode, the recorded files, and every root inside the interleaving\'s folder', async () => {
    const dir = await snapshotFolder({ 'session.1.jsonl': '{}\n', 'session.2.jsonl': '{}\n', 'session.4.jsonl': '{}\n', 'replay.override.json': '[]' })
    const workdir = { root: '/tmp/run', cwd: '/tmp/run/cwd', home: '/tmp/run/home' }
    expect(snapshotEnvironment(dir, workdir)).toEqual({
      DSH_SNAPSHOT: 'replay',
      DSH_SNAPSHOT_FILE: join(dir, 'session.jsonl'),
      DSH_SNAPSHOT_OVERRIDE: join(dir, 'replay.override.json'),
      // Contiguous from 1: session.4 follows a gap and is not one of them.
      DSH_SNAPSHOT_CHILD_FILES: [join(dir, 'session.1.jsonl'), join(dir, 'session.2.jsonl')].join(delimiter),
      DSH_SNAPSHOT_SESSIONS_ROOT: '/tmp/run/sessions',
      DSH_SNAPSHOT_SPILL_ROOT: '/tmp/run/spill',
      DSH_HOME: '/tmp/run/cwd/.dsh',
      DSH_AGENTS_HOME: '/tmp/run/cwd/.agents',
    })
    const plain = await snapshotFolder()
    expect(Object.keys(snapshotEnvironment(plain, workdir))).not.toContain('DSH_SNAPSHOT_CHILD_FILES')
    expect(Object.keys(snapshotEnvironment(plain, workdir))).not.toContain('DSH_SNAPSHOT_OVERRIDE')
    expect(snapshotWorkspace(plain)).toEqual([])
  })
})

describe('the pinned form of a session log', () => {
  it('is the first header\'s prompt and tools, then every later header as a change, laid out as dsh writes its pinned files', () => {
    const tools = [{ name: 'read', description: 'reads', parameters: { type: 'object' } }]
    const later = [...tools, { name: 'write', description: 'writes', parameters: {} }]
    const form = pinnedFormOf([{ type: 'session' }, header('first', tools), { type: 'turn/start' }, header('second\n', later)])
    expect(form.systemPrompt).toBe('first\n\n<!-- request/header change 1 -->\n\nsecond\n')
    expect(form.toolSchemas).toBe(`${JSON.stringify({ initial: tools, changes: [later] }, null, 2)}\n`)
    expect(pinnedFormOf([]).toolSchemas).toBe(`${JSON.stringify({ initial: [], changes: [] }, null, 2)}\n`)
  })

  it('applies dsh\'s normalisations in order: /private{{cwd}}, spill locators, then every UUID as {{sessionId}}', () => {
    const text = [
      'in /private{{cwd}}/src',
      'see {{cwd}}/.spill/session-0123456789ab/abcdef012345-out.txt. Use read with offset/limit',
      'and {{workdir}}/spill/session-0123456789ab/abcdef012345-big.log',
      'session 00000000-0000-4000-8000-000000000001 and 539AA64C-7F37-40FF-ABD8-ED45B717BE1B',
    ].join('\n')
    const form = pinnedFormOf([header(text, [{ name: 'x', description: '00000000-0000-4000-8000-000000000002' }])])
    expect(form.systemPrompt).toBe([
      'in {{cwd}}/src',
      'see {{spillLocator:out.txt}}. Use read with offset/limit',
      'and {{spillLocator:big.log}}',
      'session {{sessionId}} and {{sessionId}}',
    ].join('\n') + '\n')
    expect(form.toolSchemas).toContain('"description": "{{sessionId}}"')
    expect(SNAPSHOT_NORMALISATIONS.map(rule => rule.name)).toEqual(['working directory', 'spill locators', 'session ids'])
    for (const rule of SNAPSHOT_NORMALISATIONS) expect(rule.reason.length).toBeGreaterThan(10)
  })
})

describe('a session log held to pinned files', () => {
  const tools = [{ name: 'read', description: 'reads', parameters: {} }]
  const pins = (role: 'pin' | 'classmate', systemPrompt: string): SnapshotPins => ({
    role,
    systemPrompt: { path: '/s/pin/system-prompt.expected.md', text: systemPrompt },
    toolSchemas: { path: '/s/pin/tool-schemas.expected.json', text: `${JSON.stringify({ initial: tools, changes: [] }, null, 2)}\n` },
  })

  it('as a classmate: every header it logs must be the pin\'s first, and a log without one has nothing to differ', () => {
    expect(pinDifferences([header('prompt', tools), { type: 'turn/start' }, header('prompt', tools)], pins('classmate', 'prompt\n'))).toEqual([])
    expect(pinDifferences([], pins('classmate', 'prompt\n'))).toEqual([])
    // Only the pin's first header counts for a classmate: later ones are the pin's own changes.
    expect(pinDifferences([header('prompt', tools)], pins('classmate', 'prompt\n\n<!-- request/header change 1 -->\n\nlater\n'))).toEqual([])
    expect(pinDifferences([header('prompt', tools), header('other', tools)], pins('classmate', 'prompt\n'))).toEqual([{ file: 'systemPrompt', pinned: 'prompt\n', logged: 'other\n' }])
    const moreTools = [...tools, { name: 'write', description: 'writes', parameters: {} }]
    expect(pinDifferences([header('prompt', moreTools)], pins('classmate', 'prompt\n')).map(item => item.file)).toEqual(['toolSchemas'])
  })

  it('as a pin: its headers, written out as dsh writes them, must give the files whole', () => {
    expect(pinDifferences([header('prompt', tools)], pins('pin', 'prompt\n'))).toEqual([])
    expect(pinDifferences([header('prompt', tools), header('prompt', tools)], pins('pin', 'prompt\n')).map(item => item.file)).toEqual(['toolSchemas', 'systemPrompt'])
    expect(pinDifferences([], pins('pin', 'prompt\n')).map(item => item.file)).toEqual(['toolSchemas', 'systemPrompt'])
  })
})

describe('the suite\'s scenario table', () => {
  it('says each snapshot\'s header class, its pin and the sources it borrows, and its run conditions as requirements', async () => {
    const dir = await fixtureDir()
    const table = await dir.write('tests/acp.snapshot.ts', `export const SCENARIOS = [
  { name: 'text-turn', hasModelTurn: true, pinsHeader: true },
  { name: 'fs-read', hasModelTurn: true },
  {
    name: 'pwsh-tool-turn',
    pinsHeader: true, // the bundle's } is not the entry's end, and a comment's posixOnly: true is no condition
    headerClass: 'pwsh',
    pwshOnly: true,
  },
  { name: 'sandboxed', headerClass: 'sandbox', posixOnly: true, pwshOnly: true },
  { name: 'escalation', headerClass: 'sandbox', pinsHeader: true, systemPromptSource: 'text-turn', toolSchemasSource: 'text-turn' },
  { name: 'gpu-turn', gpuOnly: true },
  { name: 'orphan', headerClass: 'nobody' },
]
`)
    const entries = readSuiteTable(table)
    expect(entries.get('fs-read')).toEqual({ name: 'fs-read', env: {} })
    expect(entries.get('pwsh-tool-turn')).toEqual({ name: 'pwsh-tool-turn', env: {}, headerClass: 'pwsh', pinsHeader: true, requires: { commands: ['pwsh'], platforms: [] } })
    expect(entries.get('sandboxed')).toEqual({ name: 'sandboxed', env: {}, headerClass: 'sandbox', requires: { commands: ['pwsh'], platforms: ['posix'] } })
    expect(entries.get('escalation')).toMatchObject({ headerClass: 'sandbox', pinsHeader: true, systemPromptSource: 'text-turn', toolSchemasSource: 'text-turn' })
    expect(entries.get('gpu-turn')).toEqual({ name: 'gpu-turn', env: {}, unknownConditions: ['gpuOnly'] })

    const snapshots = join(dir.root, 'tests/snapshots')
    for (const name of ['text-turn', 'pwsh-tool-turn']) {
      await dir.write(`tests/snapshots/${name}/system-prompt.expected.md`, 'p\n')
      await dir.write(`tests/snapshots/${name}/tool-schemas.expected.json`, '{}\n')
    }
    const own = (name: string, file: string) => join(snapshots, name, file)
    expect(classPinOf('fs-read', entries, snapshots)).toEqual({ headerClass: 'default', pin: 'text-turn', role: 'classmate', systemPrompt: own('text-turn', 'system-prompt.expected.md'), toolSchemas: own('text-turn', 'tool-schemas.expected.json') })
    expect(classPinOf('text-turn', entries, snapshots)).toMatchObject({ pin: 'text-turn', role: 'pin' })
    // The sandbox class is pinned by escalation, whose files are text-turn's.
    expect(classPinOf('sandboxed', entries, snapshots)).toEqual({ headerClass: 'sandbox', pin: 'escalation', role: 'classmate', systemPrompt: own('text-turn', 'system-prompt.expected.md'), toolSchemas: own('text-turn', 'tool-schemas.expected.json') })
    expect(classPinOf('escalation', entries, snapshots)).toMatchObject({ pin: 'escalation', role: 'pin', systemPrompt: own('text-turn', 'system-prompt.expected.md') })
    expect(classPinOf('orphan', entries, snapshots)).toEqual({ problem: 'no scenario of the table pins its header class "nobody"' })
    const twice = new Map([...entries, ['rival', { name: 'rival', env: {}, pinsHeader: true as const }]])
    expect(classPinOf('fs-read', twice, snapshots)).toEqual({ problem: 'its header class "default" is pinned by both text-turn and rival' })
    const unpinned = new Map([...entries, ['lost', { name: 'lost', env: {}, headerClass: 'lost', pinsHeader: true as const }]])
    expect(classPinOf('lost', unpinned, snapshots)).toEqual({ problem: `the pin of its header class "lost" (lost) has no ${own('lost', 'system-prompt.expected.md')}` })
  })

  it('names the live configuration and the variables of each snapshot it lists, from the table\'s text', async () => {
    const dir = await fixtureDir()
    const table = await dir.write('tests/acp.snapshot.ts', `import { fileURLToPath } from 'node:url'
const PTY_CONFIG = fileURLToPath(new URL('../pty.cordis.yml', import.meta.url))
const LONG_CONFIG = fileURLToPath(
  new URL('./fixtures/long.cordis.yml', import.meta.url),
)
export const SCENARIOS = [
  { name: 'text-turn', hasModelTurn: true, recorded: true, pinsHeader: true },
  {
    name: 'pty-tools',
    configPath: PTY_CONFIG,
    env: { DSH_PERMISSION_MODE: 'read-only', NOTE: "a } in a string" },
  },
  { name: 'long-one', configPath: LONG_CONFIG },
]
`)
    const entries = readSuiteTable(table)
    expect(entries.get('text-turn')).toEqual({ name: 'text-turn', env: {}, pinsHeader: true })
    expect(entries.get('pty-tools')).toEqual({ name: 'pty-tools', config: join(dir.root, 'pty.cordis.yml'), env: { DSH_PERMISSION_MODE: 'read-only', NOTE: 'a } in a string' } })
    expect(entries.get('long-one')?.config).toBe(join(dir.root, 'tests/fixtures/long.cordis.yml'))
    expect(replayConfigOf('/x/pty.cordis.yml')).toBe('/x/pty.cordis.snapshot.yml')
    expect(replayConfigOf('/x/cordis.yaml')).toBe('/x/cordis.snapshot.yml')
  })

  it('finds snapshot folders: a folder that is one, or the ones a folder holds, by name', async () => {
    const dir = await fixtureDir()
    await dir.write('snapshots/b/input.json', STEPS)
    await dir.write('snapshots/a/input.json', STEPS)
    await dir.write('snapshots/not-one/readme.txt', '')
    expect(snapshotFoldersIn(join(dir.root, 'snapshots'))).toEqual([join(dir.root, 'snapshots/a'), join(dir.root, 'snapshots/b')])
    expect(snapshotFoldersIn(join(dir.root, 'snapshots/a'))).toEqual([join(dir.root, 'snapshots/a')])
    expect(snapshotFoldersIn(join(dir.root, 'nowhere'))).toEqual([])
  })
})
