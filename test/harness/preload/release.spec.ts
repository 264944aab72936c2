import { describe, expect, it } from 'vitest'
import { ReleaseOrder } from '../../../harness/preload/release.js'

/** An import the test settles by hand, and when the loader got it. */
function deferred() {
  let resolve!: (value: unknown) => void
  const promise = new Promise(done => { resolve = done })
  return { promise, resolve }
}

describe('the release order of one boot', () => {
  it('releases waiting imports in the row\'s order once all are read', async () => {
    const order = new ReleaseOrder('row', () => ['c', 'a', 'b'], () => {}, () => 'x.yml')
    const got: string[] = []
    const imports = ['a', 'b', 'c'].map(label => ({ label, ...deferred() }))
    const handed = imports.map(({ label, promise }) => order.request(label, () => promise).then(() => got.push(label)))
    imports.forEach(({ resolve }) => resolve({}))
    await Promise.all(handed)
    expect(got).toEqual(['c', 'a', 'b'])
    expect(order.released).toEqual(['c', 'a', 'b'])
  })

  it('never holds an entry for one the row names first that is not requested yet: that one goes later', async () => {
    const order = new ReleaseOrder('row', () => ['late', 'now'], () => {}, () => 'x.yml')
    const got: string[] = []
    await order.request('now', () => Promise.resolve({})).then(() => got.push('now'))
    await order.request('late', () => Promise.resolve({})).then(() => got.push('late'))
    expect(got).toEqual(['now', 'late'])
    expect(order.requested).toEqual([{ label: 'now', enabledAt: 0 }, { label: 'late', enabledAt: 1 }])
  })

  it('in the natural run hands every import over as it settles, and records that order', async () => {
    const order = new ReleaseOrder('natural', () => ['b', 'a'], () => {}, () => 'x.yml')
    const a = deferred()
    const b = deferred()
    const first = order.request('a', () => a.promise)
    order.request('b', () => b.promise)
    a.resolve({})
    await first
    expect(order.released).toEqual(['a'])
    b.resolve({})
    await b.promise
    await new Promise(resolve => setImmediate(resolve))
    expect(order.released).toEqual(['a', 'b'])
  })

  it('passes a failed import on to the loader, and records it', async () => {
    const order = new ReleaseOrder('row', () => ['bad'], () => {}, () => 'x.yml')
    await expect(order.request('bad', () => Promise.reject(new Error('no module')))).rejects.toThrow('no module')
    expect(order.failedImports).toEqual(['bad'])
  })

  it('names the configuration, and so looks its row up, only once the first wave has been read', async () => {
    const asked: number[] = []
    const order = new ReleaseOrder('row', () => ['b', 'a'], () => {}, () => { asked.push(order.requested.length); return 'x.yml' })
    const a = deferred()
    const b = deferred()
    const handed = [order.request('a', () => a.promise), order.request('b', () => b.promise)]
    a.resolve({})
    await new Promise(resolve => setImmediate(resolve))
    expect(asked).toEqual([])
    b.resolve({})
    await Promise.all(handed)
    expect(asked).toEqual([2])
    expect(order.released).toEqual(['b', 'a'])
  })

  it('lets a boot whose configuration has no row go on unperturbed, and says so', async () => {
    const order = new ReleaseOrder('row', () => undefined, () => {}, () => 'other.yml')
    await order.request('a', () => Promise.resolve({}))
    expect(order.unknown).toBe(true)
    expect(order.configuration).toBe('other.yml')
    const late = deferred()
    let handed = false
    void order.request('b', () => late.promise).then(() => { handed = true })
    late.resolve({})
    await new Promise(resolve => setImmediate(resolve))
    expect(handed).toBe(true)
    expect(order.released).toEqual(['a', 'b'])
  })
})
