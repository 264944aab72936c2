import Schema from '@deepseek-ai/schemastery'

/** SystemPrompt's plugin config (REFERENCE-SPEC §4.1). */
export interface SystemPromptConfig {
  /** Register the fixed one-line harness identity section (default true). */
  includeHarnessIdentity?: boolean
  /** Let runtime-context entries reach the assembly (default true). */
  includeRuntimeContext?: boolean
  /** The deployment persona section's text (default empty). */
  persona?: string
  /**
   * The explicit model-facing tool order; omitted means lexicographic. `null`
   * is typed because a YAML key without a value passes the schema as `null`;
   * the service rejects it.
   */
  toolOrder?: readonly string[] | null
}

/**
 * The schema of a `toolOrder` key, for every config on the forwarding chain.
 *
 * A schemastery array defaults to `[]`, which would turn an omitted key into an
 * explicitly configured empty list (invalid: it lacks the rest entry). Forcing
 * the default to `undefined` keeps an omitted key absent from the resolved
 * config, so "omitted" stays "lexicographic" at every level (RFC, §6.1).
 */
export function toolOrderSchema(): Schema<readonly string[] | null | undefined, readonly string[] | null | undefined> {
  // `.default()` is typed to take a list; `undefined` is the point here.
  const forcedAbsent = Schema.array(String).default(undefined as unknown as string[])
  return forcedAbsent as unknown as Schema<readonly string[] | null | undefined, readonly string[] | null | undefined>
}

/** The SystemPrompt config schema: identity and runtime context on, empty persona, `toolOrder` absent unless set. */
export const Config: Schema<SystemPromptConfig, SystemPromptConfig> = Schema.object({
  includeHarnessIdentity: Schema.boolean().default(true),
  includeRuntimeContext: Schema.boolean().default(true),
  persona: Schema.string().default(''),
  toolOrder: toolOrderSchema(),
}) as unknown as Schema<SystemPromptConfig, SystemPromptConfig>
