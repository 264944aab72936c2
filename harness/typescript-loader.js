/**
 * Makes TypeScript modules importable in this thread through tsx: the
 * harness's own sources when they run unbuilt, and the `.ts` plugin modules
 * scenario files name. Plain JavaScript, so that it runs before any
 * TypeScript can; the `loadrace` command, each worker process and the scenario
 * loader call it, and only the first call in a thread registers.
 *
 * It registers what `node --import tsx` registers — the way dsh runs its
 * TypeScript — both hooks: the ESM loader hooks and the CommonJS `require`
 * hooks. With the ESM hooks alone, a `.ts` module in a folder without a
 * `package.json` of `"type": "module"` (CommonJS by Node's rules) imports on
 * Node 20 but not on Node 22, whose `require(esm)` then fails with
 * `Cannot require() ES Module … in a cycle`; with both, every module shape
 * loads the same on every Node.
 */
import { register as registerModuleHooks } from 'tsx/esm/api'
import { register as registerRequireHooks } from 'tsx/cjs/api'

/** Marks a thread whose module hooks are registered (shared by every copy of this module in the thread). */
const REGISTERED = Symbol.for('loadrace.typescript-loader')

/** Registers tsx's module and require hooks in this thread, once. */
export function enableTypeScript() {
  const thread = /** @type {Record<symbol, boolean | undefined>} */ (/** @type {unknown} */ (globalThis))
  if (thread[REGISTERED] === true) return
  registerModuleHooks()
  registerRequireHooks()
  // tsx turns source maps on; cordis builds many stack traces, which they make slow.
  process.setSourceMapsEnabled(false)
  thread[REGISTERED] = true
}
