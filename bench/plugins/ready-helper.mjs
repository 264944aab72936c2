// A plugin whose apply starts a helper child process that writes "ready" after about 300 ms of real time. With
// `config.stay` the helper then stays up until the plugin is disposed (a long-lived server); without it, it exits
// right after writing "ready". The plugin waits for "ready" under a 4 s timeout, then registers `ready_helper`
// (its description says which came first). Its disposer kills the helper and awaits its exit. When
// LOADRACE_BENCH_HELPER_PIDS names a folder, each helper's pid is noted there (an empty file named after it), so
// the bench can check that none outlives its interleaving.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const READY_AFTER_MS = 300
const WAIT_MS = 4000

function helperSource(stay) {
  const ready = `setTimeout(() => process.stdout.write('ready\\n'), ${READY_AFTER_MS})`
  return stay ? `${ready}; setInterval(() => {}, 3_600_000)` : ready
}

/** Resolves with "ready" on the helper's first output, or with a timeout message after `ms`. */
function firstWord(helper, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(`no ready within ${ms} ms`), ms)
    helper.stdout.once('data', () => {
      clearTimeout(timer)
      resolve('ready')
    })
  })
}

export default {
  name: 'ready-helper',
  inject: ['tools'],
  async apply(ctx, config) {
    const helper = spawn(process.execPath, ['-e', helperSource(config.stay === true)], { stdio: ['ignore', 'pipe', 'inherit'] })
    const pids = process.env.LOADRACE_BENCH_HELPER_PIDS
    if (pids) writeFileSync(join(pids, String(helper.pid)), '')
    ctx.effect(() => async () => {
      if (helper.exitCode !== null || helper.signalCode !== null) return
      const exited = once(helper, 'exit')
      helper.kill()
      await exited
    })
    const word = await firstWord(helper, WAIT_MS)
    ctx.tools.register({ name: 'ready_helper', description: word, parameters: { type: 'object', properties: {} }, execute: () => word })
  },
}
