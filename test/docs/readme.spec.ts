/**
 * The README against the code it documents: every command it shows lies in a
 * section the adoption tests follow; its exit-code table is the one `--help`
 * prints; its tables of commands, options, scenario keys, outcomes and
 * verdicts name exactly what the code knows; its contents list links every
 * section.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { EXIT_CODE_ROWS } from '../../harness/cli/help.ts'
import { COMMANDS } from '../../harness/cli/main.ts'
import { VERDICT_MEANING } from '../../harness/report/present.ts'
import { ScenarioFileSchema } from '../../harness/scenario/schema.ts'
import { OUTCOMES } from '../../harness/verdict/outcome.ts'
import { SystemPrompt } from '../../src/system-prompt/service.ts'
import { commandsOf, everyCommand, FOLLOWED_SECTIONS, followedSteps, NOT_FOLLOWED, sectionHeadings, sectionOf } from '../support/readme-steps.ts'
import { anchorOf } from '../support/markdown.ts'

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8')

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

describe('the README', () => {
  it('every command of the README lies in a followed section', () => {
    const followed = FOLLOWED_SECTIONS.flatMap(section => commandsOf(followedSteps(readme, section)))
    expect([...followed].sort()).toEqual(everyCommand(readme).sort())
    for (const line of Object.keys(NOT_FOLLOWED)) expect(everyCommand(readme), line).toContain(line)
    // Every section is followed, itself or as part of the section around it.
    const listed = new Map(FOLLOWED_SECTIONS.map(section => [section.heading, section]))
    let around: string | undefined
    for (const { level, title } of sectionHeadings(readme)) {
      if (level === 2) around = title
      if (title === 'Contents') continue
      const covered = listed.has(title) || (level === 3 && around !== undefined && listed.has(around) && listed.get(around)!.own !== true)
      expect(covered, title).toBe(true)
    }
  })

  it('the exit-code table is the one --help prints', () => {
    expect(tableRows(sectionOf(readme, 'Exit codes'))).toEqual(EXIT_CODE_ROWS.map(([code, meaning]) => [code, meaning]))
  })

  it('names every command, in the order loadrace --help lists them', () => {
    const names = tableRows(sectionOf(readme, 'Commands')).map(([command]) => unquoted(command!).split(' ')[0])
    expect(names).toEqual(COMMANDS.map(command => command.spec.name))
  })

  it('names every option of every command, with the commands that take it', () => {
    const documented = new Map(tableRows(sectionOf(readme, 'Options')).map(([option, commands]) => [
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
    const block = /```yaml\n([\s\S]*?)```/.exec(sectionOf(readme, 'Scenario files'))![1]!
    const topLevel = [...block.matchAll(/^([a-z]+):/gm)].map(match => match[1])
    expect(topLevel.sort()).toEqual(Object.keys(ScenarioFileSchema.dict!).sort())
    const expectBlock = block.slice(block.indexOf('\nexpect:'))
    const expectKeys = [...expectBlock.matchAll(/^ {2}(?:# )?([a-z]+):/gm)].map(match => match[1])
    expect([...new Set(expectKeys)].sort()).toEqual(Object.keys(ScenarioFileSchema.dict!.expect!.dict!).sort())
  })

  it('the services table gives a plugin every method of the system prompt, on both targets', async () => {
    const row = tableRows(sectionOf(readme, 'The services a plugin may inject')).find(([service]) => unquoted(service!) === 'systemPrompt')!
    // Loaded by a name the type checker does not follow: dsh's declarations retype cordis's services.
    const dshPackage: string = '@deepseek-ai/dsh-system-prompt'
    const dsh = await import(dshPackage) as { SystemPrompt: { prototype: object } }
    const methods = (prototype: object) => Object.getOwnPropertyNames(prototype).filter(name => name !== 'constructor')
    expect(methods(SystemPrompt.prototype)).toEqual(expect.arrayContaining(['section', 'context', 'variable']))
    for (const name of methods(SystemPrompt.prototype)) expect(row[1], `reference: ${name}`).toMatch(new RegExp(`\\b${name}\\(`))
    for (const name of methods(dsh.SystemPrompt.prototype)) expect(row[2], `dsh: ${name}`).toContain(`\`${name}\``)
  })

  it('names every outcome and every verdict', () => {
    expect(tableRows(sectionOf(readme, 'Outcomes')).map(([outcome]) => unquoted(outcome!))).toEqual([...OUTCOMES, 'mixed'])
    expect(tableRows(sectionOf(readme, 'Verdicts')).map(([verdict]) => unquoted(verdict!))).toEqual(Object.keys(VERDICT_MEANING))
  })

  it('its contents list links every ## section', () => {
    const contents = sectionOf(readme, 'Contents')
    for (const { level, title } of sectionHeadings(readme)) {
      if (level === 2 && title !== 'Contents') expect(contents, title).toContain(`(#${anchorOf(title)})`)
    }
  })

  it('says how to install, the main job and the tests, with how long the tests take on 2 cores', () => {
    const working = sectionOf(readme, 'Working on loadrace')
    expect(commandsOf(followedSteps(readme, FOLLOWED_SECTIONS.find(section => section.heading === 'Working on loadrace')!))).toEqual(
      ['git clone <loadrace repository> loadrace', 'cd loadrace', 'npm ci', 'npm run sweep', 'npm test'],
    )
    expect(working).toMatch(/npm test +# .*\d+ to \d+ minutes on 2 cores/)
    expect(sectionOf(readme, 'Install')).toContain('npm i -D ./vendor/loadrace-')
  })
})
