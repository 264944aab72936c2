import { applies } from './applies.ts'
import { auto } from './auto.ts'
import { cover } from './cover.ts'
import { exhaustive } from './exhaustive.ts'
import { pct } from './pct.ts'
import { random } from './random.ts'
import type { Strategy, StrategyName } from './strategy.ts'

/** Every exploration strategy, by name. */
export const strategies: Record<StrategyName, Strategy> = { auto, exhaustive, random, pct, cover, applies }

export { DEFAULT_APPLY_STRENGTH, DEFAULT_DEPTH, DEFAULT_STRENGTH, formatGuarantee, STRATEGY_NAMES } from './strategy.ts'
export type { Guarantee, Plan, Strategy, StrategyName, StrategyOptions } from './strategy.ts'
