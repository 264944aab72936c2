import type { LlmCallConfig } from './contract.ts'

/**
 * The call-config fields of any object (a config, a header's config or a whole
 * request), copied in the canonical key order provider, model, reasoningEffort,
 * temperature, maxTokens, stop. Absent fields stay absent.
 */
export function callConfigOf(source: LlmCallConfig): LlmCallConfig {
  return {
    provider: source.provider,
    model: source.model,
    ...source.reasoningEffort === undefined ? {} : { reasoningEffort: source.reasoningEffort },
    ...source.temperature === undefined ? {} : { temperature: source.temperature },
    ...source.maxTokens === undefined ? {} : { maxTokens: source.maxTokens },
    ...source.stop === undefined ? {} : { stop: [...source.stop] },
  }
}

/** Field-wise call-config equality (`stop` element-wise; absent differs from present). Extra keys are ignored. */
export function callConfigEquals(a: LlmCallConfig, b: LlmCallConfig): boolean {
  if (a.provider !== b.provider || a.model !== b.model) return false
  if (a.reasoningEffort !== b.reasoningEffort) return false
  if (a.temperature !== b.temperature || a.maxTokens !== b.maxTokens) return false
  if (a.stop === undefined || b.stop === undefined) return a.stop === b.stop
  return a.stop.length === b.stop.length && a.stop.every((entry, index) => entry === b.stop![index])
}
