import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAIR, startCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

const exec = promisify(execFile)

let dir: FixtureDir

/** A plugin module registering `summarise`, with a description that is the same in every interleaving. */
const STEADY = `export default {
  name: 'summarise',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'summarise', description: 'Summarise text.', parameters: { type: 'object', properties: {} } })
  },
}
`

/** The same plugin describing itself by what is registered when it registers: a race. */
const RACY = STEADY.replace(`description: 'Summarise text.'`, `description: ctx.tools.get('search') ? 'Summarise text; search first.' : 'Summarise text.'`)

const SCENARIO = `name: summarise
app: none
plugins:
  - id: search
    tools: [search]
  - id: summarise
    module: ./plugins/summarise.mjs
expect:
  outcome: completed
`

/** Waits until `ready(text)` holds for the text `read()` returns (polling), or fails after a minute. */
async function until(read: () => string, ready: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const text = read()
    if (ready(text)) return text
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got:\n${text}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('package.json', '{"private":true}\n')
  await dir.write('checks/plugins/summarise.mjs', STEADY)
  await dir.write('checks/summarise.yml', SCENARIO)
  await dir.write('checks/pair.yml', PAIR)
})

afterAll(removeFixtureDirs)

describe('loadrace watch', () => {
  it('re-sweeps only the scenario whose plugin module or file changed, and says how its result changed', async () => {
    const watcher = startCli(['watch', 'checks'], { cwd: dir.root })
    try {
      const stdout = () => watcher.output().stdout
      const first = await until(stdout, text => /✓ {2}summarise/.test(text) && /✓ {2}pair/.test(text), 'the first sweep')
      expect(first).toContain('loadrace watch: sweeping 2 scenario files')

      let seen = stdout().length
      await writeFile(join(dir.root, 'checks', 'plugins', 'summarise.mjs'), RACY)
      const raced = (await until(stdout, text => text.slice(seen).includes('    was: '), 'the re-sweep of summarise')).slice(seen)
      expect(raced).toMatch(/\] changed: checks\/plugins\/summarise\.mjs\n/)
      expect(raced).toMatch(/✗ {2}summarise {2}divergent \(completed\)/)
      expect(raced).toMatch(/blame: (search ↔ summarise|summarise ↔ search) \(header, content\)/)
      expect(raced).toContain('    was: passed, deterministic (completed)\n')
      expect(raced).not.toContain('pair')

      seen = stdout().length
      await writeFile(join(dir.root, 'checks', 'pair.yml'), PAIR.replace('app: none', 'description: touched\napp: none'))
      const touched = (await until(stdout, text => text.slice(seen).includes('as before'), 'the re-sweep of pair')).slice(seen)
      expect(touched).toMatch(/\] changed: checks\/pair\.yml\n✓ {2}pair {2}deterministic \(completed\) +exhaustive {2}2\/2\n {4}as before\n/)
      expect(touched).not.toContain('summarise')

      seen = stdout().length
      await writeFile(join(dir.root, 'checks', 'plugins', 'summarise.mjs'), STEADY)
      const fixed = (await until(stdout, text => text.slice(seen).includes('    was: '), 'the fix')).slice(seen)
      expect(fixed).toMatch(/✓ {2}summarise {2}deterministic \(completed\)/)
      expect(fixed).toContain('    was: failed, divergent (completed)\n')
    } finally {
      watcher.child.kill('SIGINT')
    }
    const run = await watcher.done
    expect(run.code).toBe(130)
  }, 180_000)

  it('ignores the temporary and backup files editors write beside a file they save', async () => {
    const own = await fixtureDir()
    await own.write('package.json', '{"private":true}\n')
    await own.write('checks/plugins/summarise.mjs', STEADY)
    await own.write('checks/summarise.yml', SCENARIO)
    const watcher = startCli(['watch', 'checks'], { cwd: own.root })
    try {
      const stdout = () => watcher.output().stdout
      await until(stdout, text => /✓ {2}summarise/.test(text), 'the first sweep')
      const seen = stdout().length
      const plugins = join(own.root, 'checks', 'plugins')
      // What vim, emacs, JetBrains IDEs and others leave beside a file while saving it, and a backup of the scenario.
      for (const name of ['4913', 'summarise.mjs~', '.summarise.mjs.swp', '#summarise.mjs#', 'summarise.mjs___jb_tmp___', 'summarise.mjs.tmp', 'summarise.mjs.bak']) {
        await writeFile(join(plugins, name), STEADY)
      }
      await writeFile(join(own.root, 'checks', 'summarise.yml~'), SCENARIO)
      await writeFile(join(own.root, 'checks', '.#summarise.yml'), SCENARIO)
      // GNU sed -i writes the new text to a temporary file (sedXXXXXX) in the same folder, then renames it over the module.
      await exec('sed', ['-i', 's|^export default|// saved\\nexport default|', join(plugins, 'summarise.mjs')])
      const after = (await until(stdout, text => text.slice(seen).includes('    as before') || text.slice(seen).includes('    was: '), 'the re-sweep')).slice(seen)
      expect(after).toMatch(/^\n\[\d\d:\d\d:\d\d\] changed: checks\/plugins\/summarise\.mjs\n✓ {2}summarise {2}.*\n {4}as before\n$/)
      expect(after).not.toMatch(/sed[A-Za-z0-9]{6}|4913|~|\.swp|#|jb_tmp|\.tmp|\.bak/)
    } finally {
      watcher.child.kill('SIGINT')
    }
    expect((await watcher.done).code).toBe(130)
  }, 180_000)
})
