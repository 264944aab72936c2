import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { COMMAND_DEFAULTS, DEFAULT_BUDGET, DEFAULTS, MATRIX_BUDGET, type CommandName } from '../../../harness/settings/defaults.ts'
import { KNOBS, resolveSettings, type GivenArgs } from '../../../harness/settings/resolve.ts'
import type { Settings } from '../../../harness/settings/settings.ts'
import { UsageError } from '../../../harness/settings/usage-error.ts'

/** The command line as the resolver reads it: option values and flags given. */
function args(values: Record<string, string>, flags: readonly string[] = []): GivenArgs {
  return { value: option => values[option], flag: option => (flags.includes(option) ? true : undefined) }
}

/** For each variable: a value to set it to, and what the settings then hold. */
const EACH_VARIABLE: Record<string, { text: string, resolved: Partial<Settings>, with?: Record<string, string> }> = {
  LOADRACE_STRATEGY: { text: 'pct', resolved: { strategy: 'pct' } },
  LOADRACE_BUDGET: { text: '17', resolved: { budget: 17 } },
  LOADRACE_SEED: { text: 'seven', resolved: { seed: 'seven' } },
  LOADRACE_DEPTH: { text: '4', resolved: { depth: 4 } },
  LOADRACE_STRENGTH: { text: '2', resolved: { strength: 2 } },
  LOADRACE_VARIANT: { text: 'registration-order', resolved: { variant: 'registration-order' } },
  LOADRACE_TARGET: { text: 'dsh', resolved: { target: 'dsh' } },
  LOADRACE_SHARD: { text: '2/3', resolved: { shard: { index: 2, count: 3 } } },
  LOADRACE_WORKERS: { text: '1', resolved: { workers: 1 } },
  LOADRACE_TIMEOUT: { text: '1234', resolved: { timeoutMs: 1234 } },
  LOADRACE_HOST: { text: 'locale:tr-TR', resolved: { hosts: [expect.objectContaining({ name: 'locale:tr-TR' })] as never } },
  LOADRACE_HOSTS: { text: 'current,tz:Asia/Kolkata', resolved: { hosts: [expect.objectContaining({ name: 'current' }), expect.objectContaining({ name: 'tz:Asia/Kolkata' })] as never } },
  LOADRACE_REPORT: { text: 'out/here', resolved: { report: 'out/here' } },
  LOADRACE_FORMAT: { text: 'md,json', resolved: { format: ['md', 'json'] } },
  LOADRACE_GOLDENS: { text: 'pinned', resolved: { goldens: 'pinned' } },
  LOADRACE_UPDATE_GOLDENS: { text: '1', resolved: { updateGoldens: true } },
  LOADRACE_KEEP_WORKDIRS: { text: 'true', resolved: { keepWorkdirs: true } },
  LOADRACE_RERUNS: { text: '5', resolved: { reruns: 5 } },
  LOADRACE_JOBS: { text: '2', resolved: { jobs: 2 } },
  LOADRACE_JUNIT: { text: 'out/junit.xml', resolved: { junit: 'out/junit.xml' } },
  LOADRACE_ORDER: { text: 'a.yml=x,y; b/c.yml=z', resolved: { order: { 'a.yml': ['x', 'y'], 'b/c.yml': ['z'] } } },
  // --only narrows a replay: it needs an order.
  LOADRACE_ONLY: { text: 'a test', with: { LOADRACE_ORDER: 'a.yml=x' }, resolved: { only: 'a test', order: { 'a.yml': ['x'] } } },
}

/** For each variable: a bad value, and the one line that says so. */
const BAD_VALUE: Record<string, { text: string, error: string }> = {
  LOADRACE_STRATEGY: { text: 'pctt', error: 'LOADRACE_STRATEGY: expected one of auto, exhaustive, random, pct, cover, applies, got "pctt"; did you mean pct?' },
  LOADRACE_BUDGET: { text: 'many', error: 'LOADRACE_BUDGET: expected a whole number ≥ 1, got "many"' },
  LOADRACE_DEPTH: { text: '0', error: 'LOADRACE_DEPTH: expected a whole number ≥ 1, got "0"' },
  LOADRACE_STRENGTH: { text: '-2', error: 'LOADRACE_STRENGTH: expected a whole number ≥ 1, got "-2"' },
  LOADRACE_VARIANT: { text: 'nope', error: 'LOADRACE_VARIANT: expected one of' },
  LOADRACE_TARGET: { text: 'prod', error: 'LOADRACE_TARGET: expected one of reference, dsh, got "prod"' },
  LOADRACE_SHARD: { text: '4/3', error: 'LOADRACE_SHARD: expected i/n with 1 ≤ i ≤ n (for example 2/4), got "4/3"' },
  LOADRACE_WORKERS: { text: 'all', error: 'LOADRACE_WORKERS: expected a whole number ≥ 1, got "all"' },
  LOADRACE_TIMEOUT: { text: '5', error: 'LOADRACE_TIMEOUT: expected a whole number from 100 to 600000, got "5"' },
  LOADRACE_HOST: { text: 'moon', error: 'LOADRACE_HOST: ' },
  LOADRACE_HOSTS: { text: 'current,current', error: 'LOADRACE_HOSTS: ' },
  LOADRACE_FORMAT: { text: 'pdf', error: 'LOADRACE_FORMAT: unknown report format "pdf"; allowed: json, md, junit, html' },
  LOADRACE_UPDATE_GOLDENS: { text: 'sure', error: 'LOADRACE_UPDATE_GOLDENS: expected one of 1, true, yes, 0, false, no, got "sure"' },
  LOADRACE_KEEP_WORKDIRS: { text: 'kept', error: 'LOADRACE_KEEP_WORKDIRS: expected one of 1, true, yes, 0, false, no, got "kept"' },
  LOADRACE_RERUNS: { text: '0', error: 'LOADRACE_RERUNS: expected a whole number ≥ 1, got "0"' },
  LOADRACE_JOBS: { text: '65', error: 'LOADRACE_JOBS: expected a whole number from 1 to 64, got "65"' },
  LOADRACE_ORDER: { text: 'tie.yml', error: 'LOADRACE_ORDER: expected CONFIG=ENTRY,ENTRY,… (the configuration\'s path, then its loader entries in order), got "tie.yml"' },
}

/** The error `resolve` throws, or a failure when it throws none. */
function errorOf(resolve: () => unknown): Error {
  try {
    resolve()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected an error')
}

const cpus = availableParallelism()

describe('resolveSettings', () => {
  it('without a command line or a variable, holds the defaults of the one table', () => {
    expect(resolveSettings({ command: 'sweep', env: {} })).toEqual({
      strategy: 'auto', budget: DEFAULT_BUDGET, seed: '0', workers: cpus, report: 'reports/latest', format: ['json', 'md', 'junit', 'html'],
      updateGoldens: false, keepWorkdirs: false, ci: false, reruns: 2, jobs: 1,
    })
    expect(DEFAULT_BUDGET).toBe(5040)
  })

  it('gives each command its own defaults from the same table', () => {
    expect(resolveSettings({ command: 'matrix', env: {} })).toMatchObject({ budget: MATRIX_BUDGET, report: 'reports/matrix', format: ['json', 'md'] })
    expect(resolveSettings({ command: 'diff-targets', env: {} })).toMatchObject({ budget: MATRIX_BUDGET, report: 'reports/diff-targets', format: ['json', 'md'] })
    expect(resolveSettings({ command: 'test', env: {} })).toMatchObject({ strategy: 'applies', strength: 2, budget: 2, report: 'reports/test' })
    expect(resolveSettings({ command: 'snapshots', env: {} })).toMatchObject({ budget: 24 })
    expect(resolveSettings({ command: 'watch', env: {} })).toMatchObject({ workers: 1 })
    expect(errorOf(() => resolveSettings({ command: 'merge', env: {} })).message).toBe('--report: required; name the folder to write the report to')
    expect(resolveSettings({ command: 'merge', env: { LOADRACE_REPORT: 'merged' } }).report).toBe('merged')
  })

  it('has a case here for every variable of every knob', () => {
    expect(Object.keys(EACH_VARIABLE).sort()).toEqual(KNOBS.flatMap(knob => knob.variables).sort())
  })

  for (const [variable, { text, resolved, with: alongside }] of Object.entries(EACH_VARIABLE)) {
    it(`reads ${variable}`, () => {
      const settings = resolveSettings({ command: 'sweep', env: { ...alongside, [variable]: text } })
      expect(settings).toMatchObject(resolved)
      // And nothing else moves.
      const others = resolveSettings({ command: 'sweep', env: {} })
      for (const key of Object.keys(settings) as (keyof Settings)[]) if (!(key in resolved)) expect(settings[key], key).toEqual(others[key])
    })
  }

  it('lets the command line beat the environment, knob by knob', () => {
    const env = { LOADRACE_BUDGET: '7', LOADRACE_SEED: 'env', LOADRACE_STRATEGY: 'random', LOADRACE_HOSTS: 'current,locale:tr-TR', LOADRACE_KEEP_WORKDIRS: '0' }
    const settings = resolveSettings({ command: 'sweep', env, given: args({ budget: '5', host: 'current' }, ['keep-workdirs']) })
    expect(settings).toMatchObject({ budget: 5, seed: 'env', strategy: 'random', keepWorkdirs: true })
    expect(settings.hosts?.map(host => host.name)).toEqual(['current'])
  })

  it('refuses settings that are wrong together, naming where each came from', () => {
    expect(errorOf(() => resolveSettings({ command: 'test', env: { LOADRACE_ONLY: 'x' } })).message).toBe('LOADRACE_ONLY: needs --order (it narrows a replay to one test)')
    expect(errorOf(() => resolveSettings({ command: 'test', env: { LOADRACE_JUNIT: 'j.xml' }, given: args({ jobs: '2' }) })).message)
      .toBe('--jobs 2: not with LOADRACE_JUNIT, whose one file two reruns side by side would both write; give --jobs 1 or let loadrace add its own reporter')
    expect(resolveSettings({ command: 'test', env: { LOADRACE_JOBS: '3' } }).jobs).toBe(3)
  })

  it('takes --order repeated on the command line, and refuses a configuration given two orders', () => {
    const given: GivenArgs = { value: () => undefined, values: option => option === 'order' ? ['a.yml=x,y', 'b.yml=z'] : undefined, flag: () => undefined }
    expect(resolveSettings({ command: 'test', env: {}, given }).order).toEqual({ 'a.yml': ['x', 'y'], 'b.yml': ['z'] })
    const twice: GivenArgs = { ...given, values: option => option === 'order' ? ['a.yml=x', 'a.yml=y'] : undefined }
    expect(errorOf(() => resolveSettings({ command: 'test', env: {}, given: twice })).message).toBe('--order: a.yml is given two orders; give each configuration once')
  })

  it('names the option when the command line is wrong, whatever the environment says', () => {
    expect(errorOf(() => resolveSettings({ command: 'sweep', env: { LOADRACE_BUDGET: '7' }, given: args({ budget: 'x' }) })).message).toBe('--budget: expected a whole number ≥ 1, got "x"')
  })

  for (const [variable, { text, error }] of Object.entries(BAD_VALUE)) {
    it(`refuses a bad ${variable} with one line naming it and what is allowed`, () => {
      const thrown = errorOf(() => resolveSettings({ command: 'sweep', env: { [variable]: text } }))
      expect(thrown).toBeInstanceOf(UsageError)
      expect(thrown.message.startsWith(error), thrown.message).toBe(true)
      expect(thrown.message).not.toContain('\n')
    })
  }

  it('refuses LOADRACE_HOST and LOADRACE_HOSTS together', () => {
    expect(errorOf(() => resolveSettings({ command: 'sweep', env: { LOADRACE_HOST: 'current', LOADRACE_HOSTS: 'current,locale:tr-TR' } })).message)
      .toBe('LOADRACE_HOST and LOADRACE_HOSTS: set one of them (LOADRACE_HOSTS=a,b compares hosts; LOADRACE_HOST runs on one)')
  })

  it('counts an empty variable as unset', () => {
    expect(resolveSettings({ command: 'sweep', env: Object.fromEntries(Object.keys(EACH_VARIABLE).map(name => [name, ''])) })).toEqual(resolveSettings({ command: 'sweep', env: {} }))
  })

  it('reads no variable of an option the command does not take', () => {
    const env = { LOADRACE_BUDGET: 'bad', LOADRACE_HOSTS: 'current,locale:tr-TR', LOADRACE_HOST: 'locale:tr-TR', LOADRACE_SHARD: '1/2' }
    const replay = resolveSettings({ command: 'replay', options: ['json', 'scenarios', 'host', 'timeout'], env })
    expect(replay.budget).toBe(DEFAULT_BUDGET)
    expect(replay.shard).toBeUndefined()
    expect(replay.hosts?.map(host => host.name)).toEqual(['locale:tr-TR'])
  })

  it('caps the workers at the CPUs, saying where the number came from', () => {
    let note = ''
    const notes = { write: (text: string) => { note += text } }
    expect(resolveSettings({ command: 'sweep', env: { LOADRACE_WORKERS: String(cpus + 5) }, notes }).workers).toBe(cpus)
    expect(note).toBe(`loadrace: LOADRACE_WORKERS ${cpus + 5} is more than the ${cpus} available CPU${cpus === 1 ? '' : 's'}; using ${cpus}\n`)
  })

  it('reads CI as the golden policy does', () => {
    expect(resolveSettings({ command: 'sweep', env: { CI: 'true' } }).ci).toBe(true)
    expect(resolveSettings({ command: 'sweep', env: { CI: 'false' } }).ci).toBe(false)
  })

  it('checks the matrix formats against the two documents', () => {
    expect(errorOf(() => resolveSettings({ command: 'matrix', env: { LOADRACE_FORMAT: 'junit' } })).message).toBe('LOADRACE_FORMAT: unknown report format "junit"; allowed: json, md')
  })
})

/** The rows of the first table of a section of docs/cli.md, cells without backticks. */
function environmentRows(): string[][] {
  const text = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8')
  const section = text.slice(text.indexOf('## Environment'))
  const lines = section.split('\n')
  const start = lines.findIndex(line => line.startsWith('| '))
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map(cell => cell.trim().replace(/`/g, '')))
  }
  return rows
}

describe('docs/cli.md', () => {
  const rows = environmentRows().filter(([, option]) => option !== '—')

  it('lists exactly the knobs the code has, each variable beside its option', () => {
    expect(rows.map(([variable, option]) => [variable, option])).toEqual(KNOBS.flatMap(knob => knob.options.map((option, i) => [knob.variables[i], `--${option}`])))
  })

  it('says every default of the table of defaults, for every command', () => {
    const defaultOf = (option: string) => rows.find(([, name]) => name === `--${option}`)![2]!
    const said = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value))
    for (const [name, value] of Object.entries(DEFAULTS)) {
      if (value === undefined || typeof value === 'boolean') continue
      expect(defaultOf(name), name).toContain(said(value))
    }
    for (const [command, defaults] of Object.entries(COMMAND_DEFAULTS) as [CommandName, object][]) {
      for (const [name, value] of Object.entries(defaults)) {
        if (value === undefined || typeof value === 'boolean') continue
        expect(defaultOf(name), `${command} ${name}`).toContain(said(value))
      }
    }
  })
})
