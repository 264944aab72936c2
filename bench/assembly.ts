import { Context } from '@deepseek-ai/cordis'
import { createRng } from '../harness/space/random.ts'
import { mountReference } from '../src/composition.ts'
import type { ToolSchema } from '../src/llm/contract.ts'
import { compareCodeUnits, TOOL_ORDER_REST } from '../src/system-prompt/tool-order.ts'
import { compareTasks } from './clock.ts'
import type { AssemblyFigure } from './figures.ts'

/** Registered tool counts the assembly is measured at. */
export const ASSEMBLY_SIZES = [10, 100, 1_000, 10_000] as const

/** A small JSON-schema parameter object, like a typical file tool's. */
function parametersOf(index: number): Record<string, unknown> {
  return {
    type: 'object',
    properties: { path: { type: 'string', description: 'file path' }, limit: { type: 'integer', minimum: index % 7 } },
    required: ['path'],
  }
}

/** A booted reference composition with `tools` tools registered through the real ToolRegistry, in a scrambled order. */
export interface AssemblyRig {
  root: Context
  tools: number
  toolOrder: readonly string[] | undefined
}

/**
 * Boots the reference on a fresh context and registers `tools` tools (names
 * in a seeded random order, so sorting does real work). With `withToolOrder`,
 * SystemPrompt gets a `toolOrder` listing a random half of the names with the
 * rest entry in the middle.
 */
export async function assemblyRig(tools: number, withToolOrder: boolean): Promise<AssemblyRig> {
  const rng = createRng(`bench-assembly:${tools}`)
  const names = rng.shuffle(Array.from({ length: tools }, (_, index) => `tool_${index.toString(36)}_${index % 10}`))
  let toolOrder: string[] | undefined
  if (withToolOrder) {
    toolOrder = rng.shuffle([...names]).slice(0, tools >> 1)
    toolOrder.splice(toolOrder.length >> 1, 0, TOOL_ORDER_REST)
  }
  const root = new Context()
  const handles = mountReference(root, { config: toolOrder === undefined ? {} : { toolOrder } })
  await Promise.all(Object.values(handles.fibers))
  await root.plugin({
    name: 'bench-tools',
    inject: ['tools'],
    apply(ctx: Context) {
      names.forEach((name, index) => ctx.tools.register({ name, description: `${name} tool`, parameters: parametersOf(index) }))
    },
  })
  return { root, tools, toolOrder }
}

/**
 * The work the spec makes unavoidable for one assembly: collect the registered
 * schemas, clone each one's parameters (`structuredClone`) into a fresh
 * model-facing object, and sort the names once by code units.
 */
export function assemblyFloor(root: Context): ToolSchema[] {
  const collected = root.tools.records().map(({ definition: { name, description, parameters } }): ToolSchema => ({
    name,
    description,
    parameters: structuredClone(parameters),
  }))
  return collected.sort((a, b) => compareCodeUnits(a.name, b.name))
}

/** Calls per timed sample: about two CPU milliseconds of floor work, at ~3 µs per tool. */
function batchFor(tools: number): number {
  return Math.max(1, Math.ceil(700 / tools))
}

/** Measures `SystemPrompt.assemble()` against its floor at one size, with or without a `toolOrder`. */
export async function measureAssembly(tools: number, withToolOrder: boolean): Promise<AssemblyFigure> {
  const rig = await assemblyRig(tools, withToolOrder)
  const assembled = await rig.root.systemPrompt.assemble()
  if (assembled.tools.length !== tools) throw new Error(`assembly returned ${assembled.tools.length} tools, expected ${tools}`)
  const systemPrompt = rig.root.systemPrompt
  const [floor, assemble] = await compareTasks([
    { name: 'floor', run: () => assemblyFloor(rig.root) },
    { name: 'assemble', run: () => systemPrompt.assemble() },
  ], { rounds: 7, msPerRound: 150, batch: batchFor(tools), warmupCalls: Math.max(3, Math.ceil(3000 / tools)) })
  return {
    tools,
    toolOrder: withToolOrder,
    floorUsPerTool: (floor!.msPerCall * 1000) / tools,
    assembleUsPerTool: (assemble!.msPerCall * 1000) / tools,
    ratio: assemble!.ratio,
  }
}
