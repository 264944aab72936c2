import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { spaceOf } from '../../harness/space/space.ts'
import { strategies } from '../../harness/strategies/index.ts'
import { formatToken, parseToken, targetNames, TokenError } from '../../harness/token.ts'
import type { ReplayToken, TargetName } from '../../harness/token.ts'
import { VARIANT_NAMES } from '../../src/variants/variant.ts'
import type { VariantName } from '../../src/variants/variant.ts'
import { shapesArbitrary } from '../support/schedule-shapes.ts'

describe('replay tokens', () => {
  it('uses the documented form, naming the target only when it is not the reference', () => {
    const schedule = ['tool-todo', 'tool-subagent']
    expect(formatToken({ scenario: 'ci-flake', variant: 'canonical', target: 'reference', schedule })).toBe(
      'ci-flake@canonical:tool-todo,tool-subagent',
    )
    expect(formatToken({ scenario: 'ci-flake', variant: 'canonical', target: 'dsh', schedule })).toBe(
      'ci-flake@canonical+dsh:tool-todo,tool-subagent',
    )
  })

  it('parses the documented examples', () => {
    expect(parseToken('ci-flake@canonical:tool-todo,tool-subagent')).toEqual({
      scenario: 'ci-flake',
      variant: 'canonical',
      target: 'reference',
      schedule: ['tool-todo', 'tool-subagent'],
    })
    expect(parseToken('  ci-flake@registry-sort+dsh:tool-fs,tool-todo,tool-fs#2\n')).toEqual({
      scenario: 'ci-flake',
      variant: 'registry-sort',
      target: 'dsh',
      schedule: ['tool-fs', 'tool-todo', 'tool-fs#2'],
    })
  })

  it('accepts an explicit +reference and an empty schedule', () => {
    expect(parseToken('boot@canonical+reference:a').target).toBe('reference')
    expect(parseToken('empty@canonical:').schedule).toEqual([])
  })

  it('round-trips every planned schedule of random scenarios', () => {
    const scenario = fc.stringMatching(/^[a-z0-9-]{1,20}$/)
    const variant = fc.constantFrom<VariantName>(...VARIANT_NAMES)
    const target = fc.constantFrom<TargetName>(...targetNames())
    fc.assert(
      fc.property(scenario, variant, target, shapesArbitrary(5, 3), fc.string(), (name, variantName, targetName, shapes, seed) => {
        const plan = strategies.random.plan(spaceOf(shapes), { seed, budget: 5 })
        for (const schedule of plan.schedules) {
          const token: ReplayToken = { scenario: name, variant: variantName, target: targetName, schedule }
          const text = formatToken(token)
          expect(parseToken(text)).toEqual({ ...token, schedule: [...schedule] })
          expect(formatToken(parseToken(text))).toBe(text)
        }
      }),
      { numRuns: 100 },
    )
  })

  const malformed: Array<[string, RegExp]> = [
    ['', /token is empty/],
    ['   ', /token is empty/],
    ['ci-flake@canonical', /missing ":"/],
    ['ci-flake:tool-todo', /missing "@"/],
    ['@canonical:a', /scenario name is empty/],
    ['CI_Flake@canonical:a', /scenario "CI_Flake" must use only a-z, 0-9 and "-"/],
    ['ci-flake@:a', /variant is empty/],
    ['ci-flake@sorted:a', /unknown variant "sorted" \(known: canonical, /],
    ['ci-flake@canonical+prod:a', /unknown target "prod" \(known: reference, dsh\)/],
    ['ci-flake@canonical+:a', /unknown target ""/],
    ['ci-flake@canonical:a,,b', /operation 2 is empty/],
    ['ci-flake@canonical:a,', /operation 2 is empty/],
    ['ci-flake@canonical:a,b c', /whitespace/],
    ['ci-flake@canonical:a,tool:x', /operation 2 "tool:x" is not a plugin id/],
    ['ci-flake@canonical:-a', /operation 1 "-a" is not a plugin id/],
    ['ci-flake@canonical:a#1', /operation 1 "a#1" is not a plugin id, <plugin>#<batch ≥ 2> or <plugin>#timer<k ≥ 1>/],
    ['ci-flake@canonical:a#timer0', /operation 1 "a#timer0" is not a plugin id/],
    ['ci-flake@canonical:_root', /operation 1 "_root" is not a plugin id/],
    ['ci-flake@canonical:a#timer1,a', /operation "a#timer1" comes before "a"/],
    ['ci-flake@canonical:a#0', /is not a plugin id/],
    ['ci-flake@canonical:a,b,a', /operation "a" appears twice/],
    ['ci-flake@canonical:a#2,a', /operation "a#2" comes before "a"/],
    ['ci-flake@canonical:a,a#3,a#2', /operation "a#3" comes before "a#2"/],
  ]

  it.each(malformed)('rejects %j with a clear message', (text, problem) => {
    let caught: unknown
    try {
      parseToken(text)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(TokenError)
    const message = (caught as Error).message
    expect(message).toMatch(problem)
    expect(message).toMatch(/^invalid replay token: /)
    expect(message).toContain('expected <scenario>@<variant>[+<target>][~<host>]:<op>,<op>,…')
  })

  it('reads timer operations: after their plugin\'s import, in any order among themselves; `_root` timers need no import', () => {
    expect(parseToken('slow@canonical:_root#timer1,slow,slow#timer2,fast,slow#timer1').schedule)
      .toEqual(['_root#timer1', 'slow', 'slow#timer2', 'fast', 'slow#timer1'])
  })

  it('reads and writes the host a token names, canonically', () => {
    expect(parseToken('x@canonical+dsh~node22:a,b')).toEqual({ scenario: 'x', variant: 'canonical', target: 'dsh', schedule: ['a', 'b'], host: 'node22' })
    expect(parseToken('x@canonical~locale:tr-tr+node22:a').host).toBe('node22+locale:tr-TR')
    expect(parseToken('x@canonical~tz:Asia/Kolkata:a').host).toBe('tz:Asia/Kolkata')
    expect(parseToken('x@canonical:a').host).toBeUndefined()
    expect(formatToken({ scenario: 'x', variant: 'canonical', target: 'reference', schedule: ['a'], host: 'locale:tr-TR' })).toBe('x@canonical~locale:tr-TR:a')
    expect(() => parseToken('x@canonical~mars:a')).toThrow(/host "mars": unknown facet "mars"/)
    expect(() => parseToken('x@canonical~tz:Nowhere/Land:a')).toThrow(/"Nowhere\/Land" is not a time zone/)
  })

  it('refuses to format a token it could not read back', () => {
    const base: ReplayToken = { scenario: 'ok', variant: 'canonical', target: 'reference', schedule: ['a'] }
    expect(() => formatToken({ ...base, scenario: 'Not OK' })).toThrow(TokenError)
    expect(() => formatToken({ ...base, variant: 'nope' as VariantName })).toThrow(/unknown variant "nope"/)
    expect(() => formatToken({ ...base, target: 'prod' as TargetName })).toThrow(/unknown target "prod"/)
    expect(() => formatToken({ ...base, schedule: ['a', 'a'] })).toThrow(/appears twice/)
  })
})
