/**
 * The settings of a run: one `Settings` type, every default in one place
 * (`defaults.ts`), the knobs with their options and `LOADRACE_*` variables,
 * and the one resolver that reads and validates them.
 */
export type { KnobName, Settings } from './settings.ts'
export { APPLIED_DEFAULTS, availableCpus, COMMAND_DEFAULTS, DEFAULT_BUDGET, DEFAULT_SEED, DEFAULT_STRATEGY, DEFAULTS, defaultsOf, MATRIX_BUDGET, MAX_JOBS, type CommandName, type Defaults } from './defaults.ts'
export { formatOrder, ORDER_SEPARATOR, parseOrders } from './orders.ts'
export { KNOBS, knobNamed, resolveSettings, type GivenArgs, type Knob, type SettingsSources } from './resolve.ts'
export { isCi, type Env } from './environment.ts'
export { DOCUMENT_FORMATS, parseDocumentFormats, parseFormats, REPORT_FORMATS, type DocumentFormat, type ReportFormat } from './formats.ts'
export { formatShard, parseShard, type Shard } from './shard.ts'
export { parseChoiceList } from './choice-list.ts'
export { UsageError } from './usage-error.ts'
export * as settingValues from './values.ts'
