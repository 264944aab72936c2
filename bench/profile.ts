import { Session } from 'node:inspector/promises'
import { fileURLToPath } from 'node:url'
import type { OwnerTime } from './figures.ts'

/**
 * Who an interleaving's CPU time goes to, from V8's sampling profiler (the
 * same profile `node --cpu-prof` writes, taken in process around the runs of
 * interest only, so that start-up and module loading stay out of it).
 *
 * Each sample is charged to the code it was taken in: a package of
 * `node_modules`, a part of loadrace, garbage collection, or V8 itself. A
 * sample taken in Node's own JavaScript is charged to the nearest caller that
 * is not Node's (Node's `getActiveResourcesInfo` called by loadrace's
 * quiescence is loadrace's), except Node's async-hook machinery: it runs for
 * every promise once a hook is enabled, and loadrace enables one (its held
 * timers and its sandbox watch timer creation, and its attribution of work to
 * loader entries is an `AsyncLocalStorage`).
 */

/** A node of V8's CPU profile. */
interface ProfileNode {
  id: number
  callFrame: { functionName: string, url: string }
  children?: number[]
}

/** V8's CPU profile (`Profiler.stop`). */
export interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** The checkout's root, for telling loadrace's own files apart. */
const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The owner of code of a dsh checkout (`…/deepseek-harness/`): its vendored cordis and loader, its packages, their dependencies. */
function workspaceOwner(path: string): { owner: string, loadrace: boolean } | undefined {
  const inside = /\/deepseek-harness\/(.*)$/.exec(path)?.[1]
  if (inside === undefined) return undefined
  const pnpm = /node_modules\/\.pnpm\/([^/]+)/.exec(inside)?.[1]
  if (pnpm !== undefined) {
    if (pnpm.startsWith('js-yaml@')) return { owner: 'cordis loader and include', loadrace: false }
    const name = (/^((?:@[^+]+\+)?[^@]+)@/.exec(pnpm)?.[1] ?? pnpm).replace('+', '/')
    return { owner: `other packages (${name})`, loadrace: false }
  }
  if (/^vendor\/(cordis|cosmokit)\//.test(inside)) return { owner: 'cordis (contexts, fibers, services, events)', loadrace: false }
  if (/^vendor\//.test(inside)) return { owner: 'cordis loader and include', loadrace: false }
  return { owner: 'the system under test (dsh packages)', loadrace: false }
}

/** The owner of code at `url`, or undefined for Node's own JavaScript and frames without a source. */
export function ownerOfUrl(url: string): { owner: string, loadrace: boolean } | undefined {
  if (url === '' || url.startsWith('node:')) return undefined
  const path = url.startsWith('file://') ? fileURLToPath(url.split('?')[0]!) : url
  const workspace = workspaceOwner(path)
  if (workspace !== undefined) return workspace
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1]
  if (pkg !== undefined) {
    if (pkg === '@deepseek-ai/cordis' || pkg === '@deepseek-ai/cosmokit') return { owner: 'cordis (contexts, fibers, services, events)', loadrace: false }
    if (pkg.startsWith('@deepseek-ai/cordis-plugin-') || pkg === 'js-yaml') return { owner: 'cordis loader and include', loadrace: false }
    if (pkg.startsWith('@deepseek-ai/')) return { owner: 'the system under test (dsh packages)', loadrace: false }
    return { owner: `other packages (${pkg})`, loadrace: false }
  }
  if (!path.startsWith(ROOT)) return { owner: 'other code', loadrace: false }
  const file = path.slice(ROOT.length)
  if (file.startsWith('harness/projection/') || file.startsWith('harness/oracle/')) return { owner: 'loadrace: projection and hash', loadrace: true }
  if (file.startsWith('harness/targets/')) return { owner: 'loadrace: target adapter (mount, turns, determinism rewriting)', loadrace: true }
  if (file.startsWith('harness/')) return { owner: 'loadrace: scheduler (releases, quiescence, sandbox, attribution)', loadrace: true }
  if (file.startsWith('src/')) return { owner: 'the system under test (reference)', loadrace: false }
  return { owner: 'the benchmark itself', loadrace: false }
}

const ASYNC_HOOKS = { owner: 'Node async hooks (promise hooks loadrace enables)', loadrace: true }
const SPECIAL: Record<string, { owner: string, loadrace: boolean } | null> = {
  '(garbage collector)': { owner: 'garbage collection', loadrace: false },
  '(program)': { owner: 'V8 and native code', loadrace: false },
  '(idle)': null,
  '(root)': { owner: 'V8 and native code', loadrace: false },
}

/** Each owner's share of the profile's non-idle time, largest first. */
export function ownerShares(profile: CpuProfile, msPerRun: number): OwnerTime[] {
  const nodes = new Map(profile.nodes.map(node => [node.id, node]))
  const parents = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
  const ownerOf = (id: number) => {
    const frame = nodes.get(id)!.callFrame
    if (frame.functionName in SPECIAL) return SPECIAL[frame.functionName]
    if (frame.url.includes('async_hooks')) return ASYNC_HOOKS
    let found: { owner: string, loadrace: boolean } | undefined
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parents.get(cursor)) {
      const { url } = nodes.get(cursor)!.callFrame
      // The profiler stopping itself is not the work profiled.
      if (url === 'node:inspector') return null
      found ??= ownerOfUrl(url)
    }
    return found ?? { owner: 'Node itself', loadrace: false }
  }
  const time = new Map<string, { loadrace: boolean, micros: number }>()
  let total = 0
  profile.samples.forEach((id, index) => {
    const owner = ownerOf(id)
    if (owner === null) return
    const micros = profile.timeDeltas[index] ?? 0
    total += micros
    const entry = time.get(owner.owner) ?? { loadrace: owner.loadrace, micros: 0 }
    entry.micros += micros
    time.set(owner.owner, entry)
  })
  return [...time].map(([owner, { loadrace, micros }]) => ({ owner, loadrace, share: micros / total, msPerRun: (micros / total) * msPerRun }))
    .sort((a, b) => b.share - a.share)
}

/** Runs `work` under V8's sampling profiler (one sample every `intervalUs` µs) and returns the profile. */
export async function profiled(work: () => Promise<void>, intervalUs = 250): Promise<CpuProfile> {
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs })
    await session.post('Profiler.start')
    await work()
    const { profile } = await session.post('Profiler.stop')
    return profile as CpuProfile
  } finally {
    // Disconnecting also stops a profiler that `work` left running by throwing.
    session.disconnect()
  }
}
