/**
 * A strict, small XML 1.0 reader for the JUnit specs: it accepts only
 * well-formed documents (one root, matched tags, unique attributes, known
 * entities, no character XML forbids) and returns the element tree with text
 * and attribute values decoded as an XML processor would.
 */

export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  /** Concatenated decoded character data directly inside this element. */
  text: string
}

const NAME = /[A-Za-z_:][-A-Za-z0-9._:]*/y
const SPACE = /[ \t\r\n]*/y

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** Decodes the references in character data or an attribute value; throws on an unknown or invalid one. */
function decodeReferences(raw: string, where: number): string {
  return raw.replace(/&([^;]*);|&/g, (match: string, body: string | undefined) => {
    if (body === undefined) throw new Error(`bare & at ${where}`)
    const predefined = PREDEFINED[body]
    if (predefined !== undefined) return predefined
    const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body)
    if (numeric === null) throw new Error(`unknown entity ${match} at ${where}`)
    const code = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number.parseInt(numeric[2] ?? '', 10)
    if (!isXmlChar(code)) throw new Error(`reference to a forbidden character ${match} at ${where}`)
    return String.fromCodePoint(code)
  })
}

/** Parses `source` strictly; throws an Error describing the first violation. */
export function parseStrictXml(source: string): XmlElement {
  let offset = 0
  for (const char of source) {
    const code = char.codePointAt(0) ?? 0
    if (!isXmlChar(code) || (code >= 0xd800 && code <= 0xdfff)) throw new Error(`forbidden character U+${code.toString(16)} at ${offset}`)
    offset += char.length
  }
  let i = 0
  const skipSpace = (): void => {
    SPACE.lastIndex = i
    SPACE.exec(source)
    i = SPACE.lastIndex
  }
  const readName = (): string => {
    NAME.lastIndex = i
    const match = NAME.exec(source)
    if (match === null) throw new Error(`name expected at ${i}`)
    i = NAME.lastIndex
    return match[0]
  }
  const skipMisc = (): void => {
    for (;;) {
      skipSpace()
      if (!source.startsWith('<!--', i)) return
      const end = source.indexOf('-->', i + 4)
      if (end < 0 || source.slice(i + 4, end).includes('--')) throw new Error(`bad comment at ${i}`)
      i = end + 3
    }
  }

  const declaration = /^<\?xml version="1\.0"( encoding="UTF-8")?\?>/.exec(source)
  if (declaration !== null) i = declaration[0].length
  skipMisc()
  if (source[i] !== '<') throw new Error(`root element expected at ${i}`)

  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  while (i < source.length) {
    if (stack.length === 0 && root !== undefined) {
      skipMisc()
      if (i < source.length) throw new Error(`content after the root element at ${i}`)
      break
    }
    if (source.startsWith('<!--', i)) {
      skipMisc()
    } else if (source.startsWith('<![CDATA[', i)) {
      const end = source.indexOf(']]>', i)
      if (end < 0 || stack.length === 0) throw new Error(`bad CDATA at ${i}`)
      const top = stack.at(-1)
      if (top !== undefined) top.text += source.slice(i + 9, end)
      i = end + 3
    } else if (source.startsWith('</', i)) {
      i += 2
      const name = readName()
      skipSpace()
      if (source[i] !== '>') throw new Error(`> expected at ${i}`)
      i += 1
      const open = stack.pop()
      if (open === undefined || open.name !== name) throw new Error(`mismatched </${name}> at ${i}`)
    } else if (source.startsWith('<?', i) || source.startsWith('<!', i)) {
      throw new Error(`unexpected markup at ${i}`)
    } else if (source[i] === '<') {
      i += 1
      const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' }
      for (;;) {
        const before = i
        skipSpace()
        if (source.startsWith('/>', i) || source[i] === '>') break
        if (i === before) throw new Error(`space expected before an attribute at ${i}`)
        const name = readName()
        skipSpace()
        if (source[i] !== '=') throw new Error(`= expected at ${i}`)
        i += 1
        skipSpace()
        const quote = source[i]
        if (quote !== '"' && quote !== "'") throw new Error(`quoted value expected at ${i}`)
        const end = source.indexOf(quote, i + 1)
        if (end < 0) throw new Error(`unterminated attribute at ${i}`)
        const raw = source.slice(i + 1, end)
        if (raw.includes('<')) throw new Error(`< in an attribute value at ${i}`)
        if (Object.hasOwn(element.attributes, name)) throw new Error(`duplicate attribute ${name} at ${i}`)
        element.attributes[name] = decodeReferences(raw.replace(/[\t\n\r]/g, ' '), i)
        i = end + 1
      }
      const parent = stack.at(-1)
      if (parent !== undefined) parent.children.push(element)
      else if (root === undefined) root = element
      else throw new Error(`second root element at ${i}`)
      if (source.startsWith('/>', i)) {
        i += 2
      } else {
        i += 1
        stack.push(element)
      }
    } else {
      const end = source.indexOf('<', i)
      const raw = source.slice(i, end < 0 ? source.length : end)
      if (raw.includes(']]>')) throw new Error(`]]> in character data at ${i}`)
      const top = stack.at(-1)
      if (top === undefined) throw new Error(`text outside the root element at ${i}`)
      top.text += decodeReferences(raw.replace(/\r\n?/g, '\n'), i)
      i += raw.length
    }
  }
  if (root === undefined || stack.length > 0) throw new Error('unclosed element at the end of the document')
  return root
}

/** Every element named `name` under `element` (depth first, document order). */
export function descendants(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...descendants(child, name)])
}
