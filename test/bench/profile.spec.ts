import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ownerOfUrl, ownerShares, type CpuProfile } from '../../bench/profile.ts'

const checkout = (path: string) => pathToFileURL(fileURLToPath(new URL(`../../${path}`, import.meta.url))).href

/** A profile tree: root → runInterleaving (loadrace) → cordis plugin → dsh apply; loadrace → node internal; promise hook; GC; idle; the profiler stopping. */
function profile(): CpuProfile {
  const frame = (functionName: string, url: string) => ({ functionName, url })
  const nodes = [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 7, 8, 9, 10] },
    { id: 2, callFrame: frame('runInterleaving', checkout('harness/runtime/interleaving.ts')), children: [3, 5, 6] },
    { id: 3, callFrame: frame('plugin', 'file:///x/node_modules/@deepseek-ai/cordis/lib/index.js'), children: [4] },
    { id: 4, callFrame: frame('apply', 'file:///x/node_modules/@deepseek-ai/dsh-tool-fs/lib/index.js'), children: [] },
    { id: 5, callFrame: frame('getActiveResourcesInfo', 'node:internal/process/per_thread'), children: [] },
    { id: 6, callFrame: frame('projectWithBytes', checkout('harness/projection/projection.ts')), children: [] },
    { id: 7, callFrame: frame('promiseInitHook', 'node:internal/async_hooks'), children: [] },
    { id: 8, callFrame: frame('(garbage collector)', ''), children: [] },
    { id: 9, callFrame: frame('(idle)', ''), children: [] },
    { id: 10, callFrame: frame('post', 'node:inspector'), children: [11] },
    { id: 11, callFrame: frame('dispatch', ''), children: [] },
  ]
  // Sample i is taken in node samples[i] and lasts timeDeltas[i] µs.
  const samples = [3, 4, 4, 5, 6, 7, 8, 9, 11, 2]
  const timeDeltas = [100, 100, 100, 100, 200, 100, 200, 5_000, 7_000, 100]
  return { nodes, samples, timeDeltas }
}

describe('who the CPU samples of an interleaving belong to', () => {
  const shares = Object.fromEntries(ownerShares(profile(), 20).map(share => [share.owner, share]))

  it('charges each sample to the code it was taken in, Node\'s own JavaScript to its caller, and leaves idle time and the profiler out', () => {
    // 1 000 µs of work: idle (5 000 µs) and the profiler stopping (7 000 µs) are not part of it.
    expect(shares['cordis (contexts, fibers, services, events)']?.share).toBeCloseTo(0.1)
    expect(shares['the system under test (dsh packages)']?.share).toBeCloseTo(0.2)
    // getActiveResourcesInfo (Node's) is charged to its caller, loadrace's run; runInterleaving's own sample too.
    expect(shares['loadrace: scheduler (releases, quiescence, sandbox, attribution)']).toMatchObject({ loadrace: true })
    expect(shares['loadrace: scheduler (releases, quiescence, sandbox, attribution)']?.share).toBeCloseTo(0.2)
    expect(shares['loadrace: projection and hash']?.share).toBeCloseTo(0.2)
    expect(shares['Node async hooks (promise hooks loadrace enables)']?.share).toBeCloseTo(0.1)
    expect(shares['garbage collection']).toMatchObject({ loadrace: false })
    expect(shares['garbage collection']?.share).toBeCloseTo(0.2)
    expect(Object.keys(shares)).toHaveLength(6)
  })

  it('turns each share into CPU ms of a mean interleaving, largest first', () => {
    const ordered = ownerShares(profile(), 20)
    expect(ordered.map(share => share.share)).toEqual([...ordered.map(share => share.share)].sort((a, b) => b - a))
    expect(shares['loadrace: projection and hash']?.msPerRun).toBeCloseTo(4)
    expect(ordered.reduce((sum, share) => sum + share.msPerRun, 0)).toBeCloseTo(20)
  })
})

describe('who code of a dsh checkout belongs to', () => {
  it('is cordis, the loader and include, the dsh packages or their dependencies, by where it sits in the workspace', () => {
    const at = (path: string) => ownerOfUrl(`file:///w/build/dsh/deepseek-harness/${path}`)?.owner
    expect(at('vendor/cordis/lib/index.js')).toBe('cordis (contexts, fibers, services, events)')
    expect(at('vendor/cosmokit/lib/index.js')).toBe('cordis (contexts, fibers, services, events)')
    expect(at('vendor/loader/lib/index.js')).toBe('cordis loader and include')
    expect(at('node_modules/.pnpm/js-yaml@4.1.0/node_modules/js-yaml/index.js')).toBe('cordis loader and include')
    expect(at('packages/core/system-prompt/lib/index.js')).toBe('the system under test (dsh packages)')
    expect(at('node_modules/.pnpm/@agentclientprotocol+sdk@0.25.1_zod@4.4.3/node_modules/x.js')).toBe('other packages (@agentclientprotocol/sdk)')
  })
})

