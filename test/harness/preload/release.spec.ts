import { describe, expect, it } from 'vitest'
import { ReleaseOrder } from '../../../harness/preload/release.js'

/** An import the test settles by hand, and when the loader got it. */
function deferred() {
  let resolve!: (value: unknown) => void
  const promise = new Promise(done => { resolve = done })
  return { promise, resolve }
}

describe('the release order of one process', () => {
  it('releases waiting imports in the row\'s order once all are read', async () => {
    const order = new ReleaseOrder('row', () => ['c', 'a', 'b'], () => {})
    const got: string[] = []
    const imports = ['a', 'b', 'c'].map(label => ({ label, ...deferred() }))
    const handed = imports.map(({ label, promise }) => order.request(label, 'x.yml', () => promise).then(() => got.push(label)))
    imports.forEach(({ resolve }) => resolve({}))
    await Promise.all(handed)
    expect(got).toEqual(['c', 'a', 'b'])
    expect(order.released).toEqual(['c', 'a', 'b'])
  })

  it('never holds an entry for one the row names first that is not requested yet: that one goes later', async () => {
    const order = new ReleaseOrder('row', () => ['late', 'now'], () => {})
    const got: string[] = []
    await order.request('now', 'x.yml', () => Promise.resolve({})).then(() => got.push('now'))
    await order.request('late', 'x.yml', () => Promise.resolve({})).then(() => got.push('late'))
    expect(got).toEqual(['now', 'late'])
    expect(order.requested).toEqual([{ label: 'now', enabledAt: 0 }, { label: 'late', enabledAt: 1 }])
  })

  it('in the natural run hands every import over as it settles, and records that order', async () => {
    const order = new ReleaseOrder('natural', () => ['b', 'a'], () => {})
    const a = deferred()
    const b = deferred()
    const first = order.request('a', 'x.yml', () => a.promise)
    order.request('b', 'x.yml', () => b.promise)
    a.resolve({})
    await first
    expect(order.released).toEqual(['a'])
    b.resolve({})
    await b.promise
    await new Promise(resolve => setImmediate(resolve))
    expect(order.released).toEqual(['a', 'b'])
  })

  it('passes a failed import on to the loader, and records it', async () => {
    const order = new ReleaseOrder('row', () => ['bad'], () => {})
    await expect(order.request('bad', 'x.yml', () => Promise.reject(new Error('no module')))).rejects.toThrow('no module')
    expect(order.failedImports).toEqual(['bad'])
  })
})
