/**
 * Work on Node's thread pool that Node lists as no resource: an asynchronous
 * crypto job or zlib step is in flight until it calls back; a crypto job run
 * synchronously never calls back and is never in flight (counting it kept
 * every quiescence check of dsh's application waiting until the job was
 * garbage-collected).
 */
import { pbkdf2, randomBytes, randomFillSync, randomUUID } from 'node:crypto'
import { gzip } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { threadPoolWorkInFlight } from '../../../harness/runtime/thread-pool.ts'

describe('thread-pool work in flight', () => {
  it('is none after synchronous crypto jobs (randomFillSync, randomUUID refilling its cache), in the same tick', () => {
    expect(threadPoolWorkInFlight()).toBe(false)
    randomFillSync(Buffer.alloc(64))
    for (let i = 0; i < 300; i++) randomUUID({ disableEntropyCache: true })
    expect(threadPoolWorkInFlight()).toBe(false)
  })

  it('is an asynchronous crypto job from its start to its callback', async () => {
    const done = new Promise<void>((resolve, reject) => pbkdf2('secret', 'salt', 200_000, 32, 'sha256', error => error ? reject(error) : resolve()))
    expect(threadPoolWorkInFlight()).toBe(true)
    await done
    expect(threadPoolWorkInFlight()).toBe(false)
    const bytes = new Promise<void>((resolve, reject) => randomBytes(16, error => error ? reject(error) : resolve()))
    expect(threadPoolWorkInFlight()).toBe(true)
    await bytes
    expect(threadPoolWorkInFlight()).toBe(false)
  })

  it('is a zlib step from its write to its callback', async () => {
    const done = new Promise<void>((resolve, reject) => gzip(Buffer.alloc(8 * 1024 * 1024, 7), error => error ? reject(error) : resolve()))
    await new Promise(resolve => setImmediate(resolve))
    expect(threadPoolWorkInFlight()).toBe(true)
    await done
    expect(threadPoolWorkInFlight()).toBe(false)
  })
})
