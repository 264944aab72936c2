/**
 * The README and the pages under `docs/` against the code they document:
 * every command they show lies in a section the adoption tests follow (or on
 * a page listed as not walked, with why); the README's exit-code table is the
 * one `--help` prints; the tables of commands, options, environment
 * variables, scenario keys, services, outcomes and verdicts, on the pages
 * they live on, name exactly what the code knows; the README's contents list links every section, and
 * its documentation map every page.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { EXIT_CODE_ROWS } from '../../harness/cli/help.ts'
import { COMMANDS } from '../../harness/cli/main.ts'
import { VERDICT_MEANING } from '../../harness/report/present.ts'
import { ScenarioFileSchema } from '../../harness/scenario/schema.ts'
import { OUTCOMES } from '../../harness/verdict/outcome.ts'
import { SystemPrompt } from '../../src/system-prompt/service.ts'
import { commandsOf, documentationPages, everyCommand, FOLLOWED_SECTIONS, followedSteps, headingsWithin, NOT_FOLLOWED, NOT_WALKED, sectionHeadings, sectionOf, WALKED_PAGES, type Page } from '../support/readme-steps.ts'
import { anchorOf } from '../support/markdown.ts'

const pages = documentationPages(fileURLToPath(new URL('../../', import.meta.url)))
const readme = pages.get('README.md')!
/** The section `heading` of the page `page`. */
const section = (page: Page, heading: string) => sectionOf(pages.get(page)!, heading)

/** The text of every source file under harness/. */
function harnessSources(): string[] {
  const root = fileURLToPath(new URL('../../harness/', import.meta.url))
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter(entry => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map(entry => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
}

/** The rows of the first table of a text, as cells without their backticks. */
function tableRows(text: string): string[][] {
  const lines = text.split('\n')
  const start = lines.findIndex(line => line.startsWith('| '))
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map(cell => cell.trim().replaceAll('\\|', '|')))
  }
  return rows
}

const unquoted = (cell: string) => cell.replace(/`/g, '')

describe('the README and docs/', () => {
  it('every command of a walked page lies in a followed section', () => {
    for (const page of WALKED_PAGES) {
      const text = pages.get(page)!
      const followed = FOLLOWED_SECTIONS.filter(section => section.page === page).flatMap(section => commandsOf(followedSteps(pages, section)))
      expect([...followed].sort(), page).toEqual(everyCommand(text).sort())
      // Every section is followed, itself or as part of a section around it that is followed whole.
      const listed = new Map(FOLLOWED_SECTIONS.filter(section => section.page === page).map(section => [section.heading, section]))
      for (const { title, within } of headingsWithin(text)) {
        if (page === 'README.md' && (title === 'loadrace' || title === 'Contents')) continue
        const covered = listed.has(title) || within.some(around => listed.has(around) && listed.get(around)!.own !== true)
        expect(covered, `${page}: ${title}`).toBe(true)
      }
    }
    const shown = [...pages.values()].flatMap(text => everyCommand(text))
    for (const line of Object.keys(NOT_FOLLOWED)) expect(shown, line).toContain(line)
  })

  it('a page no adoption test walks shows commands only when it says why', () => {
    for (const [page, text] of pages) {
      if (WALKED_PAGES.includes(page)) continue
      expect(everyCommand(text).length > 0, `${page} shows commands`).toBe(NOT_WALKED[page] !== undefined)
    }
  })

  it('the exit-code table is the one --help prints', () => {
    expect(tableRows(sectionOf(readme, 'Exit codes'))).toEqual(EXIT_CODE_ROWS.map(([code, meaning]) => [code, meaning]))
  })

  it('names every command, in the order loadrace --help lists them', () => {
    const names = tableRows(section('docs/cli.md', 'Commands')).map(([command]) => unquoted(command!).split(' ')[0])
    expect(names).toEqual(COMMANDS.map(command => command.spec.name))
  })

  it('names every option of every command, with the commands that take it', () => {
    const documented = new Map(tableRows(section('docs/cli.md', 'Options')).map(([option, commands]) => [
      /--([a-z-]+)/.exec(unquoted(option!))![1]!,
      unquoted(commands!).split(', ').sort(),
    ]))
    const taken = new Map<string, string[]>()
    for (const command of COMMANDS) for (const option of command.spec.options) taken.set(option.name, [...taken.get(option.name) ?? [], command.spec.name].sort())
    taken.set('help', ['every command'])
    taken.set('version', ['loadrace itself'])
    expect(Object.fromEntries([...documented].sort())).toEqual(Object.fromEntries([...taken].sort()))
  })

  it('names every scenario key, and every key of expect:', () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(section('docs/scenarios.md', 'Scenario files'))![1]!
    const topLevel = [...block.matchAll(/^([a-z]+):/gm)].map(match => match[1])
    expect(topLevel.sort()).toEqual(Object.keys(ScenarioFileSchema.dict!).sort())
    const expectBlock = block.slice(block.indexOf('\nexpect:'))
    const expectKeys = [...expectBlock.matchAll(/^ {2}(?:# )?([a-z]+):/gm)].map(match => match[1])
    expect([...new Set(expectKeys)].sort()).toEqual(Object.keys(ScenarioFileSchema.dict!.expect!.dict!).sort())
  })

  it('the services table gives a plugin every method of the system prompt, on both targets', async () => {
    const row = tableRows(section('docs/writing-plugins.md', 'The services a plugin may inject')).find(([service]) => unquoted(service!) === 'systemPrompt')!
    // Loaded by a name the type checker does not follow: dsh's declarations retype cordis's services.
    const dshPackage: string = '@deepseek-ai/dsh-system-prompt'
    const dsh = await import(dshPackage) as { SystemPrompt: { prototype: object } }
    const methods = (prototype: object) => Object.getOwnPropertyNames(prototype).filter(name => name !== 'constructor')
    expect(methods(SystemPrompt.prototype)).toEqual(expect.arrayContaining(['section', 'context', 'variable']))
    for (const name of methods(SystemPrompt.prototype)) expect(row[1], `reference: ${name}`).toMatch(new RegExp(`\\b${name}\\(`))
    for (const name of methods(dsh.SystemPrompt.prototype)) expect(row[2], `dsh: ${name}`).toContain(`\`${name}\``)
  })

  it('names every environment variable loadrace reads from its user, and none it does not read', () => {
    const documented = tableRows(section('docs/cli.md', 'Environment')).flatMap(([variables]) => [...variables!.matchAll(/`([A-Z0-9_]+)`/g)].map(match => match[1]!))
    const sources = harnessSources()
    for (const name of documented) expect(sources.some(source => new RegExp(`\\b${name}\\b`).test(source)), `${name} is read by harness/`).toBe(true)
    // The LOADRACE_ variables loadrace sets for its own processes (a worker's settings, a test run's schedule and records) are not the user's.
    const own = ['LOADRACE_WORKER', 'LOADRACE_TEST_SCHEDULE', 'LOADRACE_TEST_RECORDS']
    const read = new Set(sources.flatMap(source => [...source.matchAll(/\bLOADRACE_[A-Z0-9_]+/g)].map(match => match[0])))
    expect([...read].filter(name => !own.includes(name)).sort()).toEqual(documented.filter(name => name.startsWith('LOADRACE_')).sort())
  })

  it('names every outcome and every verdict', () => {
    expect(tableRows(section('docs/reports.md', 'Outcomes')).map(([outcome]) => unquoted(outcome!))).toEqual([...OUTCOMES, 'mixed'])
    expect(tableRows(section('docs/reports.md', 'Verdicts')).map(([verdict]) => unquoted(verdict!))).toEqual(Object.keys(VERDICT_MEANING))
  })

  it('the README\'s contents list links every ## section', () => {
    const contents = sectionOf(readme, 'Contents')
    for (const { level, title } of sectionHeadings(readme)) {
      if (level === 2 && title !== 'Contents') expect(contents, title).toContain(`(#${anchorOf(title)})`)
    }
  })

  it('the README\'s documentation map links every page of docs/', () => {
    const map = sectionOf(readme, 'Documentation')
    for (const page of pages.keys()) if (page !== 'README.md') expect(map, page).toContain(`](${page})`)
  })

  it('says how to install, the main job and the tests, with how long the tests take on 2 cores', () => {
    const working = sectionOf(readme, 'Working on loadrace')
    expect(commandsOf(followedSteps(pages, FOLLOWED_SECTIONS.find(section => section.heading === 'Working on loadrace')!))).toEqual(
      ['git clone <loadrace repository> loadrace', 'cd loadrace', 'npm ci', 'npm run sweep', 'npm test'],
    )
    expect(working).toMatch(/npm test +# .*\d+ to \d+ minutes on 2 cores/)
    expect(sectionOf(readme, 'Install')).toContain('npm i -D ./vendor/loadrace-')
  })
})
