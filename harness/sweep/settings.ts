/**
 * The settings a sweep is told, by name: the one `Settings` type and its
 * resolver, every default, the strategies, the variants, the hosts, the
 * shards, the timeouts and the golden policy, with how their values parse.
 * Each is owned by its room below; this file is the one door through which
 * the command reaches them, so that the command depends on the sweep and not
 * on every room the sweep strings together.
 */
export * from '../settings/index.ts'
export { DEFAULT_DEPTH, DEFAULT_STRENGTH, STRATEGY_NAMES, type StrategyName } from '../strategies/index.ts'
export { VARIANT_NAMES, type VariantName } from '../targets/catalogue.ts'
export { targetNames } from '../targets/registry.ts'
export { checkDistinctRuntimes, HOST_FORMS, NODE22_VARIABLE, node22InstallCommand, nodeBinaryOf, parseHost, parseHosts, type Host } from '../hosts/host.ts'
export { APPLICATION_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../runtime/interleaving.ts'
export { type GoldenPolicy } from '../goldens/golden.ts'
