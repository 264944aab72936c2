import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wantsColour } from '../../../harness/cli/colour.ts'
import type { Cli } from '../../../harness/cli/command.ts'
import { heartbeatInterval, heartbeatText, DEFAULT_HEARTBEAT_MS } from '../../../harness/cli/heartbeat.ts'
import { main } from '../../../harness/cli/main.ts'
import { githubAnnotation } from '../../../harness/report/reporters/github-annotations.ts'
import { failureDetails, MAX_DIFF_LINES, scenarioBlock, scenarioLine } from '../../../harness/report/terminal.ts'
import { replayCommand } from '../../../harness/report/present.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import { captured, FIVE, inDir, PAIR, RACE } from '../../support/cli.ts'
import { divergent } from '../../support/report-entries.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

let dir: FixtureDir

/** A module plugin that reports each time it is applied. */
const SEEN_MODULE = `export default { name: 'seen', apply() { globalThis.__loadraceSeen?.() } }\n`

/** A module plugin whose tool is renamed after its third application (state kept at module level). */
const FLIP_MODULE = `let applied = 0
export default {
  name: 'flip',
  inject: ['tools'],
  apply(ctx) {
    applied++
    ctx.tools.register({ name: applied <= 3 ? 'steady' : 'flipped', description: 'flip tool', parameters: { type: 'object', properties: {} } })
  },
}
`

/** `--workers 1 --report r --goldens g` after `args`, run in the fixture. */
async function sweep(args: readonly string[], cli: Cli): Promise<number> {
  return inDir(dir.root, () => main(['sweep', ...args, '--workers', '1', '--report', 'r', '--goldens', 'g'], cli))
}

/** `captured()` whose stdout and stderr claim to be terminals. */
function onTerminal(env: Record<string, string> = {}) {
  const out = captured(env)
  out.cli.stdout.isTTY = true
  out.cli.stderr.isTTY = true
  return out
}

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('stream/a-first.yml', PAIR.replace('name: pair', 'name: a-first'))
  await dir.write('stream/b-second.yml', `${PAIR.replace('name: pair', 'name: b-second').replace('expect:', '  - id: seen\n    module: ./seen.mjs\nexpect:')}`)
  await dir.write('stream/seen.mjs', SEEN_MODULE)
  await dir.write('five.yml', FIVE)
  await dir.write('race.yml', RACE.replace('  deterministic: false\n', ''))
  await dir.write('errors/load.yml', 'name: load-fails\napp: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: broken\n    fault: apply-throws\nexpect:\n  outcome: completed\n')
  await dir.write('errors/turn.yml', 'name: turn-fails\napp: none\nconfig:\n  toolOrder: [ghost, <unlisted-tools>]\nplugins:\n  - id: tool-a\n    tools: [a]\nexpect:\n  outcome: completed\n')
  // Module-level state: the first three applications (the discovery run and the two planned interleavings) register
  // \`steady\`, every later one \`flipped\`, so the exploration shows one output and only a fresh rerun shows the other.
  await dir.write('flip.mjs', FLIP_MODULE)
  await dir.write('uncontrolled.yml', 'name: coin\napp: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: flip\n    module: ./flip.mjs\nexpect:\n  outcome: completed\n')
})

afterAll(async () => {
  delete (globalThis as { __loadraceSeen?: unknown }).__loadraceSeen
  await removeFixtureDirs()
})

describe('streaming', () => {
  it('prints each scenario\'s line as soon as it is judged, before the next one runs', async () => {
    const out = captured()
    const seen: string[] = []
    ;(globalThis as { __loadraceSeen?: () => void }).__loadraceSeen = () => { seen.push(out.stdout()) }
    expect(await sweep(['stream'], out.cli)).toBe(0)
    expect(seen.length).toBeGreaterThan(0)
    // When the second scenario's plugin first ran, the first scenario's line was out, and nothing of the summary.
    expect(seen[0]).toBe('✓  a-first   deterministic (completed)   exhaustive  2/2\n    wrote golden g/a-first.json\n')
    expect(out.stdout()).toContain('\n✓  b-second  deterministic (completed)   exhaustive  6/6\n    wrote golden g/b-second.json\n\n2 passed of 2 scenarios · 8 interleavings\n')
  })

  it('off a terminal, a heartbeat line at a fixed interval names the scenario and the counts', async () => {
    const out = captured({ LOADRACE_HEARTBEAT_MS: '20' })
    expect(await sweep(['five.yml', '--strategy', 'exhaustive'], out.cli)).toBe(0)
    const beats = out.stderr().split('\n').filter(line => line !== '')
    expect(beats.length).toBeGreaterThan(0)
    for (const beat of beats) expect(beat).toMatch(/^loadrace: \d+ s: five \(1 of 1\): (starting|\d+\/120 interleavings)$/)
    expect(beats.some(beat => / \d+\/120 interleavings$/.test(beat))).toBe(true)
    // On a terminal the progress line stands in for it.
    const terminal = onTerminal({ LOADRACE_HEARTBEAT_MS: '20' })
    expect(await sweep(['five.yml', '--strategy', 'exhaustive'], terminal.cli)).toBe(0)
    expect(terminal.stderr()).not.toContain('loadrace: ')
    expect(terminal.stderr()).toContain('five  ')
  })

  it('the heartbeat text and interval', () => {
    expect(heartbeatInterval({})).toBe(DEFAULT_HEARTBEAT_MS)
    expect(heartbeatInterval({ LOADRACE_HEARTBEAT_MS: '0' })).toBe(0)
    expect(heartbeatInterval({ LOADRACE_HEARTBEAT_MS: 'soon' })).toBe(DEFAULT_HEARTBEAT_MS)
    expect(heartbeatText({ label: 'ci-flake', explored: 3, planned: 7, ordinal: 2 }, 5, 61_400)).toBe('loadrace: 1 min 1 s: ci-flake (2 of 5): 3/7 interleavings\n')
    expect(heartbeatText(undefined, undefined, 900)).toBe('loadrace: 1 s: loading\n')
  })
})

describe('colour', () => {
  it('on a terminal, unless NO_COLOR; anywhere with FORCE_COLOR, unless it is 0 or false', () => {
    const terminal = { write: () => true, isTTY: true }
    const file = { write: () => true }
    expect(wantsColour(terminal, {})).toBe(true)
    expect(wantsColour(file, {})).toBe(false)
    expect(wantsColour(terminal, { NO_COLOR: '1' })).toBe(false)
    expect(wantsColour(terminal, { NO_COLOR: '' })).toBe(true)
    expect(wantsColour(terminal, { TERM: 'dumb' })).toBe(false)
    expect(wantsColour(file, { FORCE_COLOR: '1' })).toBe(true)
    expect(wantsColour(file, { FORCE_COLOR: 'true', NO_COLOR: '1' })).toBe(true)
    expect(wantsColour(terminal, { FORCE_COLOR: '0' })).toBe(false)
    expect(wantsColour(terminal, { FORCE_COLOR: 'false' })).toBe(false)
  })

  it('colours the marks, the headline and diff lines; plain text otherwise', async () => {
    const coloured = onTerminal()
    expect(await sweep(['race.yml'], coloured.cli)).toBe(1)
    expect(coloured.stdout()).toContain('\x1b[31m✗\x1b[39m  \x1b[31mrace\x1b[39m  divergent')
    expect(coloured.stdout()).toMatch(/\n {4}\x1b\[31m- {6}"name": "t[ab]"\x1b\[39m\n/)
    expect(coloured.stdout()).toContain('\x1b[31m1 failed, 0 passed of 1 scenario\x1b[39m')
    const plain = onTerminal({ NO_COLOR: '1' })
    expect(await sweep(['race.yml'], plain.cli)).toBe(1)
    expect(plain.stdout()).not.toContain('\x1b[')
    const forced = captured({ FORCE_COLOR: '1' })
    expect(await sweep(['race.yml'], forced.cli)).toBe(1)
    expect(forced.stdout()).toContain('\x1b[31m✗\x1b[39m')
  })
})

describe('GitHub Actions', () => {
  it('annotates the file of each failed scenario with its problems and replay command', async () => {
    const out = captured({ GITHUB_ACTIONS: 'true' })
    expect(await sweep(['race.yml', 'five.yml'], out.cli)).toBe(1)
    const annotations = out.stdout().split('\n').filter(line => line.startsWith('::'))
    expect(annotations).toHaveLength(1)
    expect(annotations[0]).toMatch(/^::error file=race\.yml,title=loadrace%3A race is divergent::interleavings differ in header \(order\): swapping tool-t[ab] and tool-t[ab] changes the bytes%0Areplay: npx loadrace replay 'race@registration-order:tool-t[ab],tool-t[ab]' --scenarios race\.yml$/)
    const quiet = captured()
    await sweep(['race.yml'], quiet.cli)
    expect(quiet.stdout()).not.toContain('::error')
  })
})

describe('verdicts this version does not know', () => {
  it('are shown as they are, failing or passing by the entry\'s own result', () => {
    const future = { ...divergent, verdict: 'host-dependent', divergence: null, goldenDiff: undefined } as unknown as ScenarioReport
    const lines = scenarioBlock(future, future.name.length)
    expect(lines[0]).toBe('✗  registration-race  host-dependent (completed)  t-way:2     37/20922789888000')
    expect(lines.slice(1)).toEqual([
      ...future.problems.flatMap(problem => problem.split('\n').map(line => `    ${line}`)),
      ...future.outputs.map((output, i) => `    replay (output ${i + 1} (${output.hash.slice(0, 12)}, ${output.count} interleavings)): ${replayCommand(output.token, future.file)}`),
    ])
    expect(githubAnnotation(future)).toMatch(/^::error file=scenarios\/registration-race\.yml,title=loadrace%3A registration-race is host-dependent::/)
    expect(scenarioLine({ ...future, passed: true }, 0)).toMatch(/^✓ {2}registration-race {2}host-dependent/)
  })

  it('a pass whose verdict is not deterministic says the file expected it; a deterministic pass and a failure do not', () => {
    expect(scenarioLine({ ...divergent, passed: true }, 0)).toMatch(/^✓ {2}registration-race {2}divergent \(completed\) .* \(divergent, as its file expects\)$/)
    expect(scenarioLine(divergent, 0)).not.toContain('as its file expects')
    expect(scenarioLine({ ...divergent, verdict: 'deterministic', passed: true } as ScenarioReport, 0)).not.toContain('as its file expects')
  })
})

describe('failures explained in the terminal', () => {
  it('a divergence: blame, both replay commands and the trimmed diff', async () => {
    const out = captured()
    await sweep(['race.yml'], out.cli)
    const text = out.stdout()
    expect(text).toMatch(/\n {4}blame: tool-t[ab] ↔ tool-t[ab] \(header, order\)\n/)
    expect(text).toContain('\n    replay (before the swap): npx loadrace replay ')
    expect(text).toContain('\n    replay (after the swap): npx loadrace replay ')
    expect(text).toContain('\n    diff of the header (before → after the swap):\n    --- race@registration-order:')
  })

  it('a diff longer than the terminal shows is cut, saying how much is left out', () => {
    const diff = ['--- before', '+++ after', '@@ -1,60 +1,60 @@', ...Array.from({ length: 60 }, (_, i) => `-line ${i}`)].join('\n')
    const long = { ...divergent, divergence: { ...divergent.divergence!, diff }, goldenDiff: undefined }
    const lines = failureDetails(long)
    expect(lines).toContain(`    -line ${MAX_DIFF_LINES - 4}`)
    expect(lines).not.toContain(`    -line ${MAX_DIFF_LINES - 3}`)
    expect(lines.at(-1)).toBe(`    … ${63 - MAX_DIFF_LINES} more diff lines in the report`)
  })

  it('the load and the turn error texts', async () => {
    const out = captured()
    expect(await sweep(['errors'], out.cli)).toBe(1)
    expect(out.stdout()).toContain('\n    first load error: "plugin \\"broken\\" failed to apply" (2 of 2 interleavings, first load-fails@canonical:tool-a,broken)\n    expected outcome completed, got load-error (2 of 2 interleavings, first load-fails@canonical:tool-a,broken)\n')
    expect(out.stdout()).toContain('\n    first turn error, at config.toolOrder: "toolOrder lists unregistered tool \\"ghost\\"; known tools: a" (1 of 1 interleavings, first turn-fails@canonical:tool-a)\n    expected outcome completed, got turn-error (1 of 1 interleavings, first turn-fails@canonical:tool-a)\n')
  })

  it('both hashes of an uncontrolled replay', async () => {
    const out = captured()
    expect(await sweep(['uncontrolled.yml'], out.cli)).toBe(1)
    expect(out.stdout()).toMatch(/✗ {2}coin {2}uncontrolled/)
    expect(out.stdout()).toMatch(/the same interleaving replayed to different bytes \(coin@canonical:(tool-a,flip|flip,tool-a)\): explored [0-9a-f]{64}, rerun [0-9a-f]{64}/)
  })
})
