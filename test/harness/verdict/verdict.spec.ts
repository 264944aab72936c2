import { describe, expect, it } from 'vitest'
import type { Analysis, Verdict } from '../../../harness/verdict/verdict.ts'
import type { DivergenceKind, DivergencePart } from '../../../harness/verdict/divergence.ts'
import { readmeTable, readmeTableNames } from './readme-tables.ts'

/**
 * The verdict and divergence vocabularies are types; these records list each
 * member once (the compiler rejects a missing or an unknown one), and the
 * README's tables must name exactly the same.
 */
const VERDICTS: Record<Verdict, true> = {
  'deterministic': true, 'divergent': true, 'uncontrolled': true, 'host-dependent': true, 'stuck': true, 'skipped': true, 'error': true,
}
const PARTS: Record<DivergencePart, true> = { header: true, request: true, events: true, errors: true, inactive: true }
const KINDS: Record<DivergenceKind, true> = { order: true, content: true }
/** The verdicts an analysis can carry. */
const ANALYSED: Record<Analysis['verdict'], true> = {
  'deterministic': true, 'divergent': true, 'uncontrolled': true, 'host-dependent': true, 'stuck': true, 'error': true,
}

describe('verdicts', () => {
  it('are the verdicts of the README table, in its order', () => {
    expect(readmeTableNames('Verdicts')).toEqual(Object.keys(VERDICTS))
  })

  it('each come with an analysis, but `skipped`: a skipped scenario was never explored', () => {
    expect(Object.keys(VERDICTS).filter(verdict => !Object.hasOwn(ANALYSED, verdict))).toEqual(['skipped'])
  })
})

describe('divergences', () => {
  const row = readmeTable('Verdicts').find(([name]) => name === 'divergent')?.[1] ?? ''

  it('name the parts the README lists for `divergent`', () => {
    const parts = /names the part \(([^)]*)\)/.exec(row)?.[1] ?? ''
    expect([...parts.matchAll(/`([a-z]+)`/g)].map(match => match[1]).sort()).toEqual(Object.keys(PARTS).sort())
  })

  it('are of the kinds the README lists for `divergent`', () => {
    const kinds = /the kind \((.*?)\), the blame/.exec(row)?.[1] ?? ''
    expect([...kinds.matchAll(/`([a-z]+)`: /g)].map(match => match[1])).toEqual(Object.keys(KINDS))
  })
})
