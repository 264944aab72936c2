import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'

/**
 * A real cordis plugin module that contributes one tool named `search` through
 * its own system-prompt tool provider (not the tool registry, which rejects
 * duplicate names). Two entries of this module race for the same name.
 */
export default {
  name: 'search-provider',
  inject: ['systemPrompt'],
  Config: Schema.object({ description: Schema.string().default('search') }),
  apply(ctx: Context, config: { description: string }) {
    ctx.systemPrompt.tools(() => ({
      schemas: [{ name: 'search', description: config.description, parameters: { type: 'object', properties: { query: { type: 'string' } } } }],
    }))
  },
}
