/**
 * `expect.header`: the request header's tools a scenario pins, inline or in a
 * JSON file next to it. Reading the file is a side effect, so it runs after
 * every other check of the scenario file has passed.
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { isRecord } from './record.ts'
import { ExpectedHeaderSchema, HEADER_SOURCES } from './schema.ts'
import { formatPath } from './show.ts'
import { checkStructure } from './structure.ts'
import type { Problem } from './problem.ts'
import type { ExpectedTool } from './scenario.ts'

const WHERE = ['expect', 'header']
const FILE_CONTENT = 'a JSON file holding a list of tools, each a tool name or {name, description, parameters}'

function problem(text: string, allowed: string): Problem {
  return { path: WHERE, problem: text, allowed, anchor: 'value' }
}

/** One checked list item as the normalised expectation keeps it (a bare name is `{ name }`). */
function expectedTool(item: unknown): ExpectedTool {
  if (typeof item === 'string') return { name: item }
  const tool = item as { name: string, description?: string, parameters?: Record<string, unknown> }
  return {
    name: tool.name,
    ...tool.description === undefined ? {} : { description: tool.description },
    ...tool.parameters === undefined ? {} : { parameters: tool.parameters },
  }
}

/** Reads and checks the file `path` names (relative to `dir`): its tools, or the problem with the file and the place inside it. */
async function fromFile(path: string, dir: string): Promise<ExpectedTool[] | Problem> {
  let text: string
  try {
    text = await readFile(resolve(dir, path), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code ?? String(error)
    return problem(`cannot read ${JSON.stringify(path)}: ${why}`, HEADER_SOURCES)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return problem(`${JSON.stringify(path)} is not JSON: ${(error as Error).message}`, FILE_CONTENT)
  }
  const [first] = checkStructure(value, ExpectedHeaderSchema)
  if (first) {
    const inside = first.path.length === 0 ? '' : ` at ${formatPath(first.path)}`
    return problem(`in ${JSON.stringify(path)}${inside}: ${first.problem}`, first.allowed)
  }
  return (value as unknown[]).map(expectedTool)
}

/**
 * The expected header of a checked scenario document: undefined when it pins
 * none, the tools of an inline list, or the tools of the JSON file it names;
 * a problem (at `expect.header`, naming the place in the file) when the file
 * cannot be read or is not such a list.
 */
export async function loadExpectedHeader(value: Record<string, unknown>, dir: string): Promise<ExpectedTool[] | undefined | Problem> {
  const header = isRecord(value.expect) ? value.expect.header : undefined
  if (header === undefined) return undefined
  if (typeof header === 'string') return fromFile(header, dir)
  return (header as unknown[]).map(expectedTool)
}

/** Narrows the result of `loadExpectedHeader`. */
export function isProblem(result: ExpectedTool[] | undefined | Problem): result is Problem {
  return result !== undefined && !Array.isArray(result)
}
