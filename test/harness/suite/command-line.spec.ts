import { describe, expect, it } from 'vitest'
import { runArgv, runsOneTest, testCommand } from '../../../harness/suite/command-line.ts'

describe('the user\'s test command', () => {
  it('knows vitest in every spelling, node --test, a named JUnit file, and otherwise judges by the exit code', () => {
    expect(testCommand(['npx', 'vitest', 'run']).source).toEqual({ kind: 'vitest' })
    expect(testCommand(['pnpm', 'exec', 'vitest', 'run', '--config', 'x.ts']).source).toEqual({ kind: 'vitest' })
    expect(testCommand(['node', 'node_modules/vitest/vitest.mjs', 'run']).source).toEqual({ kind: 'vitest' })
    expect(testCommand(['node', '--test', 'test/']).source).toEqual({ kind: 'node-test' })
    expect(testCommand(['npx', 'vitest', 'run'], 'out/junit.xml').source).toEqual({ kind: 'junit', file: 'out/junit.xml' })
    expect(testCommand(['make', 'check']).source).toEqual({ kind: 'exit-code' })
    expect(testCommand(['npx', 'vitest-like-tool']).source).toEqual({ kind: 'exit-code' })
  })

  it('adds the reporter loadrace reads, and narrows a rerun to one test by its exact name', () => {
    expect(runArgv(testCommand(['npx', 'vitest', 'run']), '/r/results.json', 'a (b) c')).toEqual([
      'npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=/r/results.json', '--testNamePattern=^a \\(b\\) c$',
    ])
    expect(runArgv(testCommand(['node', '--test', 'test/']), '/r/results.xml')).toEqual([
      'node', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=junit', '--test-reporter-destination=/r/results.xml', 'test/',
    ])
    expect(runArgv(testCommand(['make', 'check']), '/r/x', 'only')).toEqual(['make', 'check'])
    // Tests with the same sides rerun together: any one of their exact names.
    expect(runArgv(testCommand(['npx', 'vitest', 'run']), '/r/x.json', ['a (b)', 'c|d']).at(-1)).toBe('--testNamePattern=^(?:a \\(b\\)|c\\|d)$')
    expect(runArgv(testCommand(['node', '--test', 't/']), '/r/x.xml', ['x', 'y']).filter(arg => arg.includes('pattern'))).toEqual(['--test-name-pattern=^(?:x|y)$'])
    expect(runsOneTest(testCommand(['make', 'check']))).toBe(false)
  })

  it('a rerun alone replaces the command\'s own name filters, which would run other tests too', () => {
    expect(runArgv(testCommand(['npx', 'vitest', 'run', '-t', 'a|b', 'tests/']), '/r/x.json', 'a')).toEqual([
      'npx', 'vitest', 'run', 'tests/', '--reporter=default', '--reporter=json', '--outputFile.json=/r/x.json', '--testNamePattern=^a$',
    ])
    expect(runArgv(testCommand(['npx', 'vitest', 'run', '--testNamePattern=a|b']), '/r/x.json', 'a').filter(arg => arg.includes('Pattern'))).toEqual(['--testNamePattern=^a$'])
    expect(runArgv(testCommand(['node', '--test', '--test-name-pattern=x', 't/']), '/r/x.xml', 'y').filter(arg => arg.includes('pattern'))).toEqual(['--test-name-pattern=^y$'])
    // A rerun alone collects only the test's own file: the command's file filters are replaced, its options kept.
    expect(runArgv(testCommand(['pnpm', 'vitest', 'run', '--config', 'v.ts', 'examples/a', 'examples/b', '-t', 'x']), '/r/x.json', 'a', 'examples/a/t.ts')).toEqual([
      'pnpm', 'vitest', 'run', '--config', 'v.ts', 'examples/a/t.ts', '--reporter=default', '--reporter=json', '--outputFile.json=/r/x.json', '--testNamePattern=^a$',
    ])
    // Without a rerun alone, the command keeps its own filters.
    expect(runArgv(testCommand(['npx', 'vitest', 'run', '-t', 'a|b']), '/r/x.json')).toContain('a|b')
  })
})
