import { describe, expect, it } from 'vitest'
import { didYouMean, editDistance, nearest } from '../../../harness/spelling/did-you-mean.ts'

describe('editDistance', () => {
  it.each([
    ['sweep', 'sweep', 0],
    ['swep', 'sweep', 1],
    ['sweeep', 'sweep', 1],
    ['swoop', 'sweep', 2],
    ['expcet', 'expect', 1],
    ['complted', 'completed', 1],
    ['compelted', 'completed', 1],
    ['', 'abc', 3],
    ['budget', 'seed', 5],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance)
    expect(editDistance(b, a)).toBe(distance)
  })
})

describe('nearest', () => {
  const commands = ['sweep', 'watch', 'replay', 'merge', 'list', 'matrix', 'diff-targets']

  it('gives the known name within distance 2', () => {
    expect(nearest('swep', commands)).toEqual(['sweep'])
    expect(nearest('replya', commands)).toEqual(['replay'])
    expect(nearest('matirx', commands)).toEqual(['matrix'])
  })

  it('gives nothing farther than 2', () => {
    expect(nearest('frobnicate', commands)).toEqual([])
    expect(nearest('swooop', commands)).toEqual([])
  })

  it('gives every name at the smallest distance, in the order known', () => {
    expect(nearest('mist', ['list', 'mast', 'most'])).toEqual(['list', 'mast', 'most'])
    expect(nearest('lisp', ['lisa', 'list', 'lis'])).toEqual(['lisa', 'list', 'lis'])
    expect(nearest('lits', ['lots', 'list'])).toEqual(['lots', 'list'])
    expect(nearest('lust', ['list', 'lusty'])).toEqual(['list', 'lusty'])
    expect(nearest('lis', ['list', 'lisle'])).toEqual(['list'])
  })

  it('asks a short word to be closer than its own length', () => {
    expect(nearest('x', ['u', 't'])).toEqual([])
    expect(nearest('ab', ['xy'])).toEqual([])
    expect(nearest('ab', ['ax'])).toEqual(['ax'])
  })

  it('never suggests the word itself', () => {
    expect(nearest('sweep', ['sweep', 'sweet'])).toEqual(['sweet'])
  })
})

describe('didYouMean', () => {
  it('reads as a clause after the problem, quoted as asked', () => {
    expect(didYouMean('expcet', ['name', 'expect'])).toBe('; did you mean "expect"?')
    expect(didYouMean('budgett', ['budget', 'seed'], name => `--${name}`)).toBe('; did you mean --budget?')
    expect(didYouMean('mist', ['list', 'mast'])).toBe('; did you mean "list" or "mast"?')
    expect(didYouMean('frobnicate', ['sweep'])).toBe('')
  })
})
