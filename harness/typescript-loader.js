/**
 * Makes TypeScript modules importable in this thread through tsx: the
 * harness's own sources when they run unbuilt, and the `.ts` plugin modules
 * scenario files name. Plain JavaScript, so that it runs before any
 * TypeScript can; the `loadrace` command, each worker process and the scenario
 * loader call it, and only the first call in a thread registers.
 */
import { register } from 'tsx/esm/api'

/** Marks a thread whose module hooks are registered (shared by every copy of this module in the thread). */
const REGISTERED = Symbol.for('loadrace.typescript-loader')

/** Registers tsx's module hooks in this thread, once. */
export function enableTypeScript() {
  const thread = /** @type {Record<symbol, boolean | undefined>} */ (/** @type {unknown} */ (globalThis))
  if (thread[REGISTERED] === true) return
  register()
  // tsx turns source maps on; cordis builds many stack traces, which they make slow.
  process.setSourceMapsEnabled(false)
  thread[REGISTERED] = true
}
