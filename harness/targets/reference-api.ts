/**
 * The reference's services as a plugin module written in TypeScript sees
 * them. Importing these types also brings the reference's declarations of
 * them on cordis's `Context` (`ctx.tools`, `ctx.systemPrompt`, …).
 */
export type { ToolRegistry } from '../../src/tools/registry.ts'
export type { ToolDefinition, ToolCallContext } from '../../src/tools/tool.ts'
export type { SystemPrompt } from '../../src/system-prompt/service.ts'
