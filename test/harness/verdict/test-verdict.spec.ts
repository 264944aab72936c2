import { describe, expect, it } from 'vitest'
import { isFinding, verdictOfResults } from '../../../harness/verdict/test-verdict.ts'

describe('a test\'s verdict from its results', () => {
  it('holds, fails or is skipped when every run agrees; a run that did not report it does not count', () => {
    expect(verdictOfResults(['passed', 'passed', 'missing'])).toBe('holds')
    expect(verdictOfResults(['failed', 'failed'])).toBe('fails')
    expect(verdictOfResults(['skipped', 'skipped'])).toBe('skipped')
    expect(verdictOfResults(['missing'])).toBe('skipped')
    expect(verdictOfResults(['passed', 'skipped'])).toBe('holds')
  })

  it('leaves differing results to a rerun', () => {
    expect(verdictOfResults(['passed', 'failed'])).toBeUndefined()
    expect(verdictOfResults(['failed', 'skipped', 'passed'])).toBeUndefined()
  })

  it('pins-one, flaky and fails are findings; holds and skipped are not', () => {
    expect(['pins-one', 'flaky', 'fails', 'holds', 'skipped'].map(verdict => isFinding(verdict as never))).toEqual([true, true, true, false, false])
  })
})
