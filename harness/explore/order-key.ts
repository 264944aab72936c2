import { scheduleKey, type Schedule } from '../space/space.ts'

/**
 * An effective order as a shard's report and a merge carry it: the released
 * operations, then when each was requested (`<op>,<op>,…/<enabledAt>,…`; `,`
 * and `/` never occur in a label).
 */
export function formatOrderKey(schedule: Schedule, enabledAt: readonly number[]): string {
  return `${scheduleKey(schedule)}/${enabledAt.join(',')}`
}

/** Reads an effective order back from {@link formatOrderKey}. */
export function parseOrderKey(key: string): { schedule: string[], enabledAt: number[] } {
  const [ops = '', enabled = ''] = key.split('/')
  return { schedule: ops === '' ? [] : ops.split(','), enabledAt: enabled === '' ? [] : enabled.split(',').map(Number) }
}

