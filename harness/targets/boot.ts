import type { Context } from '@deepseek-ai/cordis'

/** The services a turn needs, in dependency order: the first one missing is the one that failed. */
const REQUIRED = ['systemPrompt', 'agentLoop'] as const

/** After boot: why no turn can run (the first required service that never became active), or undefined. */
export function missingService(root: Context): string | undefined {
  const reflect = root.reflect
  const missing = REQUIRED.find(name => reflect.get(name) === undefined)
  return missing && `service "${missing}" is not available after boot`
}
