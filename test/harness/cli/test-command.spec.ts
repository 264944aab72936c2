import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli.ts'
import { SUITE_APP, SUITE_APP_COMMAND } from '../../support/suite-app.ts'

/** `loadrace test` when there is nothing to judge, and bad usage: one line on stderr and a distinct exit code each. */

let folder: string
beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'loadrace-test-cli-')) })
afterEach(() => rmSync(folder, { recursive: true, force: true }))

describe('loadrace test judges nothing, and says so with exit 4', () => {
  it('when the command is not found', async () => {
    const run = await runCli(['test', '--report', folder, '--', 'no-such-command-for-loadrace'], { cwd: folder })
    expect(run.code).toBe(4)
    expect(run.stderr.split('\n').at(-2)).toBe('loadrace test: command not found: no-such-command-for-loadrace (in no-such-command-for-loadrace)')
  })

  it('when the command ran no test', async () => {
    const run = await runCli(['test', '--report', folder, '--', ...SUITE_APP_COMMAND, 'no-such-test-file'], { cwd: SUITE_APP })
    expect(run.code).toBe(4)
    expect(run.stderr).toMatch(/loadrace test: the command ran no test \(exit 1\); its output is in /)
  })

  it('when no process the command started booted a cordis loader', async () => {
    const run = await runCli(['test', '--report', folder, '--', process.execPath, '-e', 'process.exit(0)'], { cwd: folder })
    expect(run.code).toBe(4)
    expect(run.stderr).toMatch(/no process the command started \(nor a test in a vitest worker\) booted a cordis loader, so no load order was controlled \(1 tests ran\)/)
  })
})

describe('loadrace test usage', () => {
  it('needs a command after --', async () => {
    const run = await runCli(['test'], { cwd: folder })
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('loadrace test: missing the test command: give it after -- (for example: loadrace test -- npx vitest run)\n')
  })

  it('takes --only only with --order, and --order only as CONFIG=ENTRIES', async () => {
    expect((await runCli(['test', '--only', 'x', '--', 'true'], { cwd: folder })).stderr).toBe('loadrace test: --only: needs --order (it narrows a replay to one test)\n')
    const bad = await runCli(['test', '--order', 'tie.yml', '--', 'true'], { cwd: folder })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--order: expected CONFIG=ENTRY,ENTRY,…/)
  })

  it('rejects a bad strategy, budget or shard before running anything', async () => {
    for (const [option, value, message] of [['--strategy', 'sometimes', /strategy/], ['--budget', '0', /budget/], ['--shard', '3/2', /shard/]] as const) {
      const run = await runCli(['test', option, value, '--report', folder, '--', 'no-such-command-for-loadrace'], { cwd: folder })
      expect(run.code, `${option} ${value}`).toBe(2)
      expect(run.stderr).toMatch(message)
    }
  })
})
