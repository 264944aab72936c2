import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'

/** One tool as the provider returns it. */
interface ProvidedTool {
  name: string
  description: string
  parameters: Record<string, unknown>
}

const ProvidedTool: Schema<ProvidedTool> = Schema.object({
  name: Schema.string().required(),
  description: Schema.string().default(''),
  parameters: Schema.dict(Schema.any()).default({ type: 'object', properties: {} }),
})

/**
 * A real cordis plugin module that contributes its configured tools, in the
 * configured order, through its own system-prompt tool provider rather than
 * the tool registry (which rejects duplicate names). Two entries of it can
 * race for one name; one entry can return two tools of the same name.
 */
export default {
  name: 'tool-provider',
  inject: ['systemPrompt'],
  Config: Schema.object({ tools: Schema.array(ProvidedTool).required() }),
  apply(ctx: Context, config: { tools: ProvidedTool[] }) {
    ctx.systemPrompt.tools(() => ({ schemas: config.tools }))
  },
}
