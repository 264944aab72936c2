/**
 * The targets room's surface: a target's code, loaded on first use through
 * the registry, and the reference's services as a plugin module written in
 * TypeScript sees them.
 */
export { loadTarget } from './registry.ts'
export type { SystemPrompt, ToolCallContext, ToolDefinition, ToolRegistry } from './reference-api.ts'
