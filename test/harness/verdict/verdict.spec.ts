import { describe, expect, it } from 'vitest'
import type { Analysis, Verdict } from '../../../harness/verdict/verdict.ts'

/**
 * Verdicts are a type; these records list each member once (the compiler
 * rejects a missing or an unknown one). The README's Verdicts table is
 * checked against the code by test/docs.
 */
const VERDICTS: Record<Verdict, true> = {
  'deterministic': true, 'divergent': true, 'uncontrolled': true, 'harness-fault': true, 'host-dependent': true, 'stuck': true, 'skipped': true, 'error': true,
}
/** The verdicts an analysis can carry. */
const ANALYSED: Record<Analysis['verdict'], true> = {
  'deterministic': true, 'divergent': true, 'uncontrolled': true, 'harness-fault': true, 'host-dependent': true, 'stuck': true, 'error': true,
}

describe('verdicts', () => {
  it('each come with an analysis, but `skipped`: a skipped scenario was never explored', () => {
    expect(Object.keys(VERDICTS).filter(verdict => !Object.hasOwn(ANALYSED, verdict))).toEqual(['skipped'])
    expect(Object.keys(ANALYSED).filter(verdict => !Object.hasOwn(VERDICTS, verdict))).toEqual([])
  })
})
