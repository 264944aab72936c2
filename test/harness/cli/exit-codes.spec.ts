/**
 * The exit codes agree across commands: a run that compared or ran nothing
 * is not green (1) in any command, and `--help` of every command carries the
 * same table.
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { COMMANDS, main } from '../../../harness/cli/main.ts'
import { EXIT_CODE_ROWS } from '../../../harness/cli/help.ts'
import { captured, inDir } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/** A scenario on the RFC-era app chain, which the published dsh packages do not have: diff-targets can only skip it. */
const CHAIN_ONLY = `name: chain-only
app: stdio-agent
plugins:
  - id: tool-a
    tools: [a]
expect:
  outcome: completed
`

describe('nothing compared or nothing ran exits 1', () => {
  it('diff-targets that compared nothing exits 1, saying so and why on stderr', async () => {
    const dir = await fixtureDir()
    await dir.write('package.json', '{"private":true}\n')
    await dir.write('scenarios/chain-only.yml', CHAIN_ONLY)
    const out = captured()
    const code = await inDir(dir.root, () => main(['diff-targets', '--workers', '1', '--report', join(dir.root, 'out')], out.cli))
    expect(out.stdout()).toContain('0 of 0 compared')
    expect(out.stderr()).toMatch(/^loadrace: nothing compared: 1 skipped \(dsh: the RFC-era app chain .*: chain-only\)$/m)
    expect(code).toBe(1)
  })

  it('a sweep that ran nothing exits 1 the same way', async () => {
    const dir = await fixtureDir()
    await dir.write('package.json', '{"private":true}\n')
    await dir.write('scenarios/chain-only.yml', CHAIN_ONLY)
    const out = captured()
    const code = await inDir(dir.root, () => main(['sweep', '--target', 'dsh', '--workers', '1', '--report', join(dir.root, 'out')], out.cli))
    expect(out.stderr()).toMatch(/^loadrace: nothing ran: 1 skipped \(the RFC-era app chain .*: chain-only\)$/m)
    expect(code).toBe(1)
  })
})

describe('one exit-code table', () => {
  it('every command\'s --help and loadrace --help end with the same table', async () => {
    const table = ['Exit codes:', ...EXIT_CODE_ROWS.map(([code]) => code)]
    const helps = [['--help'], ...COMMANDS.map(command => [command.spec.name, '--help'])]
    for (const args of helps) {
      const out = captured()
      expect(await main(args, out.cli)).toBe(0)
      const tail = out.stdout().slice(out.stdout().lastIndexOf('Exit codes:'))
      expect(tail.trimEnd().split('\n').map(line => line.trim().split(/\s{2,}/)[0]), args.join(' ')).toEqual(table)
      for (const [code, meaning] of EXIT_CODE_ROWS) expect(tail, `${args.join(' ')}: ${code}`).toContain(meaning)
    }
  })
})
