/**
 * The loader entry ids of the reference's services when they race as
 * cordis.yml entries instead of being mounted on the root: with SystemPrompt
 * and AgentLoop mounted directly (`none`), or through an app chain (`app`).
 */
export const SERVICE_ENTRY_IDS = {
  none: ['llm', 'sessions', 'tools', 'system-prompt', 'agent-loop'],
  app: ['llm', 'sessions', 'tools', 'app'],
} as const

/** Every id a service entry may take. */
export const ALL_SERVICE_ENTRY_IDS: readonly string[] = [...new Set([...SERVICE_ENTRY_IDS.none, ...SERVICE_ENTRY_IDS.app])]
