import { describe, expect, it } from 'vitest'
import { readJunit, readVitestJson, testKey } from '../../../harness/suite/results.ts'

describe('per-test results', () => {
  it('reads vitest\'s JSON report: full names, files relative to the command\'s folder, failure messages without colours', () => {
    const json = JSON.stringify({
      testResults: [{
        name: '/project/tests/a.test.ts',
        status: 'failed',
        assertionResults: [
          { ancestorTitles: ['suite'], title: 'passes', fullName: 'suite passes', status: 'passed', failureMessages: [] },
          { ancestorTitles: ['suite'], title: 'fails', fullName: 'suite fails', status: 'failed', failureMessages: ['\u001b[31mAssertionError\u001b[39m: expected 1 to be 2'] },
          { ancestorTitles: [], title: 'later', fullName: 'later', status: 'pending', failureMessages: [] },
        ],
      }, { name: '/project/tests/broken.test.ts', status: 'failed', message: 'Cannot find module x', assertionResults: [] }],
    })
    const results = readVitestJson(json, '/project')
    expect(results).toEqual([
      { file: 'tests/a.test.ts', name: 'suite passes', status: 'passed' },
      { file: 'tests/a.test.ts', name: 'suite fails', status: 'failed', message: 'AssertionError: expected 1 to be 2' },
      { file: 'tests/a.test.ts', name: 'later', status: 'skipped' },
      { file: 'tests/broken.test.ts', name: '(file)', status: 'failed', message: 'Cannot find module x' },
    ])
    expect(testKey(results[1]!)).toBe('tests/a.test.ts › suite fails')
  })

  it('reads JUnit: a failure or an error fails a testcase, a skipped element skips it, entities are decoded', () => {
    const xml = `<?xml version="1.0"?><testsuites><testsuite name="s">
      <testcase name="adds &amp; keeps" classname="/project/test/a.test.js" time="0.1"/>
      <testcase name="breaks" file="/project/test/a.test.js"><failure message="expected &quot;x&quot;" type="AssertionError">stack &lt;here&gt;</failure></testcase>
      <testcase name="throws" classname="b"><error message="boom"/></testcase>
      <testcase name="not today" classname="b"><skipped/></testcase>
    </testsuite></testsuites>`
    expect(readJunit(xml, '/project')).toEqual([
      { file: 'test/a.test.js', name: 'adds & keeps', status: 'passed' },
      { file: 'test/a.test.js', name: 'breaks', status: 'failed', message: 'expected "x"\nstack <here>' },
      { file: 'b', name: 'throws', status: 'failed', message: 'boom' },
      { file: 'b', name: 'not today', status: 'skipped' },
    ])
  })
})

describe('the suite\'s own account of a failure', () => {
  it('is the block vitest\'s default reporter prints under the test, colours taken out, up to the next separator', async () => {
    const { vitestFailureBlock } = await import('../../../harness/suite/results.ts')
    const output = [
      ' FAIL  tests/a.test.ts > suite > other test',
      'Error: not this one',
      '⎯⎯⎯⎯[1/2]⎯',
      '',
      '\u001b[31m FAIL \u001b[39m tests/a.test.ts > suite > the test',
      'AssertionError: expected [ 1 ] to deeply equal [ 2 ]',
      '',
      '- Expected',
      '+ Received',
      '⎯⎯⎯⎯[2/2]⎯',
    ].join('\n')
    expect(vitestFailureBlock(output, { file: 'tests/a.test.ts', name: 'suite the test' })).toBe('AssertionError: expected [ 1 ] to deeply equal [ 2 ]\n\n- Expected\n+ Received')
    expect(vitestFailureBlock(output, { file: 'tests/a.test.ts', name: 'suite missing' })).toBeUndefined()
  })
})
