/**
 * Escaping for every report format. Each function takes arbitrary text that
 * came from a scenario (names, tool names, problems, tokens, diffs) and returns
 * text that the target syntax shows literally and that cannot break out of the
 * place it is put in.
 */

/** Characters HTML and XML both need replaced in text and in quoted attributes. */
const MARKUP_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Code points no report shows as themselves: C0 controls other than tab, line
 * feed and carriage return, U+FFFE, U+FFFF and unpaired surrogates. XML 1.0
 * cannot carry them at all (not even as character references); in HTML and
 * Markdown they would be invisible.
 */
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Replaces every invisible code point by the visible text `\uXXXX`. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
}

/** Text for HTML element content or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return showInvisible(text).replace(/[&<>"']/g, (char) => MARKUP_ENTITIES[char] ?? char)
}

/**
 * Text for XML element content. Forbidden code points become visible `\uXXXX`
 * text; a carriage return is kept as a reference so line-end normalisation
 * does not drop it.
 */
export function escapeXmlText(text: string): string {
  return showInvisible(text)
    .replace(/[&<>]/g, (char) => MARKUP_ENTITIES[char] ?? char)
    .replace(/\r/g, '&#13;')
}

/**
 * Text for a quoted XML attribute value. Tabs and line breaks become
 * references, since attribute-value normalisation would turn them into spaces.
 */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/["']/g, (char) => MARKUP_ENTITIES[char] ?? char)
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
}

/**
 * Inline Markdown text, safe in a paragraph, a list item or a table cell:
 * HTML-significant characters become entities, Markdown punctuation that could
 * start emphasis, code, links, strike-through or a cell boundary is
 * backslash-escaped, a leading block marker is neutralised, and line breaks
 * become `<br>` so the text stays on its line.
 */
export function escapeMarkdown(text: string): string {
  const escaped = showInvisible(text)
    .replace(/[&<>]/g, (char) => MARKUP_ENTITIES[char] ?? char)
    .replace(/[\\`*_[\]|~]/g, (char) => `\\${char}`)
    .replace(/^([#+=-])/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2')
  return escaped.replace(/\r\n|\r|\n/g, '<br>')
}

/** The length of the longest run of `char` in `text` (0 when absent). */
function longestRun(text: string, char: string): number {
  let longest = 0
  let run = 0
  for (const c of text) {
    run = c === char ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest
}

/**
 * A Markdown code span showing `text` verbatim. The delimiter is one backtick
 * longer than any backtick run inside; line breaks become spaces. Inside a
 * table (`inTable`), each `|` is escaped, which GFM undoes within code spans;
 * a backslash right before a `|` cannot be shown there, so such text falls
 * back to escaped plain text.
 */
export function markdownCode(text: string, options: { inTable?: boolean } = {}): string {
  let content = showInvisible(text).replace(/\r\n|\r|\n/g, ' ')
  if (content === '') return ''
  if (options.inTable === true) {
    if (content.includes('\\|')) return escapeMarkdown(text)
    content = content.replace(/\|/g, '\\|')
  }
  const delimiter = '`'.repeat(longestRun(content, '`') + 1)
  const padded = /^[` ]|[` ]$/.test(content) && content.trim() !== '' ? ` ${content} ` : content
  return `${delimiter}${padded}${delimiter}`
}

/**
 * A fenced Markdown code block showing `text` verbatim (invisible code points
 * made visible). The fence is a run of backticks longer than any run inside
 * (at least three), so no line of the content can close it.
 */
export function markdownFence(text: string, info = ''): string {
  const shown = showInvisible(text)
  const fence = '`'.repeat(Math.max(3, longestRun(shown, '`') + 1))
  const body = shown.endsWith('\n') ? shown : `${shown}\n`
  return `${fence}${info}\n${body}${fence}`
}

/** `text` as one POSIX shell word: as it is when it holds only characters no shell treats specially, else single-quoted. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : shellQuote(text)
}

/** `text` as one POSIX shell word, single-quoted (a `'` inside is closed, escaped and reopened). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}
