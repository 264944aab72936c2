import { describe, expect, it } from 'vitest'
import { InvariantError } from '../../../src/runtime/invariant-error.ts'

describe('an invariant error', () => {
  it('says which package broke which invariant, and keeps both apart', () => {
    const error = new InvariantError('tools', 'tool "read" registered twice')
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('InvariantError')
    expect(error.message).toBe('invariant violated by "tools": tool "read" registered twice')
    expect([error.owner, error.detail]).toEqual(['tools', 'tool "read" registered twice'])
    expect(String(error)).toBe('InvariantError: invariant violated by "tools": tool "read" registered twice')
  })
})
