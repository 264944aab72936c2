/**
 * What each target says about itself in the bytes it produces: the sentence
 * of its `harness:identity` prompt section, and the model id its scripted
 * model answers as. `diff-targets` normalises exactly these (and nothing
 * else) before comparing the two systems.
 */
import { HARNESS_IDENTITY_TEXT } from '../../src/system-prompt/service.ts'
import type { TargetName } from './types.ts'

/** The text of dsh-system-prompt's `harness:identity` section at 0.1.0-rc.8. */
export const DSH_IDENTITY_TEXT = 'You are an AI agent powered by DeepSeek Harness.'

/** Each target's identity sentence, which opens its system prompt. */
export const IDENTITY_TEXTS: Readonly<Record<TargetName, string>> = { reference: HARNESS_IDENTITY_TEXT, dsh: DSH_IDENTITY_TEXT }

/** The model id each target's scripted model answers as (the dsh target's `MOCK_MODEL`; the reference loop's default). */
export const TARGET_MODELS: Readonly<Record<TargetName, string>> = { reference: 'mock-model', dsh: 'mock' }
