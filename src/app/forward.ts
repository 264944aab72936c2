/**
 * The keys of `values` whose value is not `undefined`, for forwarding optional
 * config one level down the app → agent-core → SystemPrompt chain: an omitted
 * key must stay omitted (never become an explicit `undefined`), while an
 * explicit `null` is forwarded so the owner can reject it.
 */
export function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}
