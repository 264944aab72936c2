import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { DivergenceKind, DivergencePart } from '../../../harness/verdict/divergence.ts'
import { sectionOf } from '../../support/readme-steps.ts'

/** Each member of the two types once (the compiler rejects a missing or an unknown one). */
const PARTS: Record<DivergencePart, true> = { header: true, request: true, events: true, errors: true, inactive: true }
const KINDS: Record<DivergenceKind, true> = { order: true, content: true }

const REPORTS = readFileSync(new URL('../../../docs/reports.md', import.meta.url), 'utf8')
const DIVERGENT = sectionOf(REPORTS, 'Verdicts').split('\n').find(line => line.startsWith('| `divergent` |')) ?? ''

describe('a divergence', () => {
  it('names one of the parts docs/reports.md lists for `divergent`', () => {
    const parts = /names the part \(([^)]*)\)/.exec(DIVERGENT)?.[1] ?? ''
    expect([...parts.matchAll(/`([a-z]+)`/g)].map(match => match[1]).sort()).toEqual(Object.keys(PARTS).sort())
  })

  it('is of one of the kinds docs/reports.md lists for `divergent`', () => {
    const kinds = /the kind \((.*?)\), the blame/.exec(DIVERGENT)?.[1] ?? ''
    expect([...kinds.matchAll(/`([a-z]+)`: /g)].map(match => match[1])).toEqual(Object.keys(KINDS))
  })
})
