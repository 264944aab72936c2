import { describe, expect, it } from 'vitest'
import { describeCrash, describeEnding, ERROR_OUTCOMES, HEADER_OUTCOMES, OUTCOMES, type Outcome } from '../../../harness/verdict/outcome.ts'

describe('outcomes (their table in docs/reports.md is checked by test/docs)', () => {
  it('are five, each named once', () => {
    expect(new Set(OUTCOMES).size).toBe(OUTCOMES.length)
    expect(OUTCOMES).toHaveLength(5)
  })

  it('carry an error message when the system failed: a turn, its boot or its process', () => {
    expect(new Set(ERROR_OUTCOMES)).toEqual(new Set<Outcome>(['turn-error', 'load-error', 'crashed']))
  })

  it('log a header when the system booted, with or without a load error (docs/scenarios.md: `expect.header`)', () => {
    expect(new Set(HEADER_OUTCOMES)).toEqual(new Set<Outcome>(['completed', 'load-error']))
  })
})

describe('a crash in one line', () => {
  it('names the entry and the exit code, as docs/reports.md writes it', () => {
    expect(describeCrash({ kind: 'exit', entry: 'exit', code: 7 })).toBe('entry exit called process.exit(7)')
  })

  it('counts an exit without a code as process.exit(0)', () => {
    expect(describeCrash({ kind: 'exit', entry: 'quit' })).toBe('entry quit called process.exit(0)')
  })

  it('names the base composition when no entry raised it', () => {
    expect(describeCrash({ kind: 'exit', entry: null, code: 1 })).toBe('the base composition called process.exit(1)')
  })

  it('tells an uncaught exception from an unhandled rejection, with what was thrown', () => {
    expect(describeCrash({ kind: 'uncaught-exception', entry: 'x', error: 'Error: boom' })).toBe('uncaught exception in entry x: Error: boom')
    expect(describeCrash({ kind: 'unhandled-rejection', entry: 'y', error: 'TypeError: no' })).toBe('unhandled rejection in entry y: TypeError: no')
  })

  it('still says what happened when the thrown value is unknown', () => {
    expect(describeCrash({ kind: 'uncaught-exception', entry: null })).toBe('uncaught exception in the base composition: unknown error')
    expect(describeCrash({ kind: 'unhandled-rejection', entry: 'z' })).toBe('unhandled rejection in entry z: unknown reason')
  })
})

describe('how an interleaving ended, in one line', () => {
  const none = { load: [], turn: [] }
  it('names what a stuck run waited for, counting past three', () => {
    expect(describeEnding({ outcome: 'stuck', errors: none, stuck: { reason: 'no-progress', phase: 'boot', waiting: ['a', 'b', 'c', 'd', 'e'] } }))
      .toBe('stuck (no-progress in boot; waiting for a, b, c and 2 more)')
    expect(describeEnding({ outcome: 'stuck', errors: none, stuck: { reason: 'timeout', phase: 'turns', waiting: [] } })).toBe('stuck (timeout in turns)')
  })

  it('gives the first message of an error outcome, and the crash in its own words', () => {
    expect(describeEnding({ outcome: 'turn-error', errors: { load: ['x'], turn: ['boom', 'later'] }, stuck: null })).toBe('turn-error: boom')
    expect(describeEnding({ outcome: 'load-error', errors: { load: ['no module'], turn: [] }, stuck: null })).toBe('load-error: no module')
    expect(describeEnding({ outcome: 'crashed', errors: none, stuck: null, crash: { kind: 'exit', entry: 'quit', code: 2 } })).toBe('crashed: entry quit called process.exit(2)')
    expect(describeEnding({ outcome: 'completed', errors: none, stuck: null })).toBe('completed')
  })
})
