// A tool plugin that awaits a timer of `config.ms` in apply before registering its tool (`config.name`, default
// `aaa_slow`): the bench sweeps it next to a synthetic plugin to show the verdict does not depend on the delay or the
// run, and sizes the cover plan of a space its timers grow.
import { setTimeout as sleep } from 'node:timers/promises'

export default {
  name: 'tool-slow',
  inject: ['tools'],
  async apply(ctx, config) {
    await sleep(config.ms)
    const name = config.name ?? 'aaa_slow'
    ctx.tools.register({ name, description: `${name} tool`, parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
  },
}
