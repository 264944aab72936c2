// A tool plugin that awaits a timer of `config.ms` in apply before registering `aaa_slow`:
// the bench sweeps it next to a synthetic plugin to show the verdict does not depend on the delay or the run.
import { setTimeout as sleep } from 'node:timers/promises'

export default {
  name: 'tool-slow',
  inject: ['tools'],
  async apply(ctx, config) {
    await sleep(config.ms)
    ctx.tools.register({ name: 'aaa_slow', description: 'aaa_slow tool', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
  },
}
