/**
 * Just enough of CommonMark/GFM for the report specs: fenced blocks, code
 * spans and table-cell splitting, following the rules the renderers rely on.
 */

export interface MarkdownBlocks {
  /** Each fenced block: its info string and its content, verbatim. */
  fences: { info: string, content: string }[]
  /** Every line outside fenced blocks. */
  lines: string[]
}

/** Splits a document into fenced blocks and the lines outside them; throws on an unclosed fence. */
export function markdownBlocks(markdown: string): MarkdownBlocks {
  const fences: MarkdownBlocks['fences'] = []
  const lines: string[] = []
  const all = markdown.split('\n')
  for (let i = 0; i < all.length; i += 1) {
    const line = all[i] ?? ''
    const open = /^(`{3,})([^`]*)$/.exec(line)
    if (open === null) {
      lines.push(line)
      continue
    }
    const length = open[1]?.length ?? 3
    const content: string[] = []
    let closed = false
    for (i += 1; i < all.length; i += 1) {
      const inner = all[i] ?? ''
      const close = /^(`{3,})\s*$/.exec(inner)
      if (close !== null && (close[1]?.length ?? 0) >= length) {
        closed = true
        break
      }
      content.push(inner)
    }
    if (!closed) throw new Error(`unclosed fence opened with ${length} backticks`)
    fences.push({ info: (open[2] ?? '').trim(), content: content.map((text) => `${text}\n`).join('') })
  }
  return { fences, lines }
}

/** Code spans in one line of inline text, decoded, and the text around them. */
export function codeSpans(line: string): { spans: string[], rest: string } {
  const spans: string[] = []
  let rest = ''
  let i = 0
  while (i < line.length) {
    if (line[i] === '\\' && i + 1 < line.length) {
      rest += line.slice(i, i + 2)
      i += 2
      continue
    }
    if (line[i] !== '`') {
      rest += line[i]
      i += 1
      continue
    }
    let run = 0
    while (line[i + run] === '`') run += 1
    const closer = new RegExp(`(?<!\`)\`{${run}}(?!\`)`, 'g')
    closer.lastIndex = i + run
    const close = closer.exec(line)
    if (close === null) {
      rest += '`'.repeat(run)
      i += run
      continue
    }
    let content = line.slice(i + run, close.index)
    if (content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1)
    spans.push(content)
    i = close.index + run
  }
  return { spans, rest }
}

/** The raw cells of a GFM table row: split on `|` that is not backslash-escaped (`\x` pairs are skipped whole). */
export function tableCells(row: string): string[] {
  const cells: string[] = []
  let cell = ''
  for (let i = 0; i < row.length; i += 1) {
    const char = row[i] ?? ''
    if (char === '\\' && i + 1 < row.length) {
      cell += char + (row[i + 1] ?? '')
      i += 1
    } else if (char === '|') {
      cells.push(cell)
      cell = ''
    } else {
      cell += char
    }
  }
  cells.push(cell)
  if (cells[0]?.trim() === '') cells.shift()
  if (cells.at(-1)?.trim() === '') cells.pop()
  return cells.map((text) => text.trim())
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as dashes. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')
}
