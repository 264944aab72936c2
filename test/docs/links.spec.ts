/**
 * Every relative link of README.md and docs/*.md names a file that exists,
 * and its `#anchor` (also a bare `#anchor` within the page) a heading of that
 * file, as GitHub makes anchors of headings.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { anchorOf } from '../support/markdown.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)]

/** The text outside code blocks and code spans. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')
}


/** The anchors of a markdown file's headings. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(match => anchorOf(match[1]!)))
}

/** The relative links of a page: `[text](target)` whose target has no scheme. */
function linksOf(page: string): string[] {
  return [...prose(readFileSync(join(ROOT, page), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)].map(match => match[1]!).filter(target => !/^[a-z]+:/i.test(target))
}

describe('links', () => {
  it('make GitHub\'s anchors of headings', () => {
    expect(anchorOf('Node 22, for dsh and the node22 host')).toBe('node-22-for-dsh-and-the-node22-host')
    expect(anchorOf("Real applications: dsh's ACP agent (`apps/`)")).toBe('real-applications-dshs-acp-agent-apps')
    expect(anchorOf('Bug-finding power and coverage cost')).toBe('bug-finding-power-and-coverage-cost')
  })

  for (const page of PAGES) {
    it(`of ${page} resolve, to a file and a heading`, () => {
      const links = linksOf(page)
      if (page === 'README.md') expect(links.length).toBeGreaterThan(20)
      const broken = links.filter((link) => {
        const [path, anchor] = link.split('#') as [string, string | undefined]
        const target = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path)
        if (!existsSync(target)) return true
        return anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)
      })
      expect(broken.map(link => `${page} → ${link}${existsSync(join(ROOT, dirname(page), link.split('#')[0]!)) ? ' (no such heading)' : ''}`), relative(ROOT, join(ROOT, page))).toEqual([])
    })
  }
})
