/** The one-line errors the scenario loader reports, one per malformed file. */

/** What went wrong in one scenario file, and where. */
export interface ScenarioErrorFields {
  /** The file path as the user gave it. */
  file: string
  /** A field path such as `plugins[2].batches[0]`, or `(file)` for the file as a whole. */
  path: string
  /** What is wrong, on one line. */
  problem: string
  /** What would be accepted there, on one line. */
  allowed: string
}

/** Escapes line breaks so a message always stays on one line. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\\n')
}

/**
 * A malformed scenario file. `line` (also the message) reads
 * `FILE: field.path: what is wrong (what is allowed)`.
 */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError'
  readonly file: string
  readonly path: string
  readonly problem: string
  readonly allowed: string
  readonly line: string

  constructor(fields: ScenarioErrorFields) {
    const file = oneLine(fields.file)
    const path = oneLine(fields.path)
    const problem = oneLine(fields.problem)
    const allowed = oneLine(fields.allowed)
    const line = `${file}: ${path}: ${problem} (${allowed})`
    super(line)
    this.file = file
    this.path = path
    this.problem = problem
    this.allowed = allowed
    this.line = line
  }
}

/** Every failure of a multi-file load: one `ScenarioError` per malformed file, in path order. */
export class ScenarioErrors extends Error {
  override readonly name = 'ScenarioErrors'
  readonly errors: readonly ScenarioError[]

  constructor(errors: readonly ScenarioError[]) {
    super(errors.map((error) => error.line).join('\n'))
    this.errors = errors
  }

  /** The error lines, one per failure. */
  get lines(): string[] {
    return this.errors.map((error) => error.line)
  }
}

/**
 * Bad input found after parsing (a shard set that does not fit, an unknown
 * scenario, a token that does not replay): one or more lines for stderr.
 */
export class InputError extends Error {
  override readonly name: string = 'InputError'
  readonly lines: readonly string[]

  constructor(lines: readonly string[]) {
    super(lines.join('\n'))
    this.lines = lines
  }
}
