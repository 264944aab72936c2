#!/usr/bin/env node
// What a run concluded, without how long it took or where it ran: the
// verdicts, outcomes, output counts and pass/fail of every scenario, cell or
// comparison in the JSON reports of the given folders, one line each, sorted.
// Two trees of loadrace give the same digest when a change left behaviour
// alone (docs/contributing.md, "Checking that a restructuring changed nothing"):
//
//   node scripts/verdict-digest.mjs reports/before > before.txt
//   node scripts/verdict-digest.mjs reports/after > after.txt
//   diff before.txt after.txt
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Fields that say what was concluded; everything else (times, paths, tokens, hashes, runtimes) is left out. */
const CONCLUSIONS = ['verdict', 'verdicts', 'outcome', 'distinctOutputs', 'explored', 'planned', 'passed', 'status', 'expected', 'guarantee', 'mismatched', 'differing', 'same', 'failed', 'compared', 'reason']
/** Lists whose length is the conclusion (how many differences a comparison found). */
const COUNTED = ['differences']
/** Fields that name what a conclusion is about. */
const NAMES = ['name', 'scenario', 'target', 'variant', 'cell', 'policy']

function jsonFiles(folder) {
  const files = []
  for (const name of readdirSync(folder)) {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) files.push(...jsonFiles(path))
    else if (name.endsWith('.json')) files.push(path)
  }
  return files
}

function scalar(value) {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}

/** A conclusion's value as a word: a scalar, or a list of scalars joined. */
function shown(value) {
  if (scalar(value)) return String(value)
  if (Array.isArray(value) && value.every(scalar)) return value.join(',')
  return undefined
}

/** One line per object that carries a conclusion, named by the path to it and its naming fields. */
function lines(value, path, out) {
  if (Array.isArray(value)) {
    value.forEach((item, index) => lines(item, `${path}[${index}]`, out))
    return
  }
  if (typeof value !== 'object' || value === null) return
  const named = NAMES.filter(key => scalar(value[key])).map(key => `${key}=${value[key]}`)
  const concluded = [
    ...CONCLUSIONS.filter(key => key in value && shown(value[key]) !== undefined).map(key => `${key}=${shown(value[key])}`),
    ...COUNTED.filter(key => Array.isArray(value[key])).map(key => `${key}=${value[key].length}`),
  ]
  if (concluded.length > 0) out.push(`${named.length > 0 ? named.join(' ') : path} :: ${concluded.join(' ')}`)
  for (const [key, child] of Object.entries(value)) if (typeof child === 'object' && child !== null) lines(child, named.length > 0 ? `${named.join(' ')}.${key}` : `${path}.${key}`, out)
}

const folders = process.argv.slice(2)
if (folders.length === 0) {
  process.stderr.write('usage: node scripts/verdict-digest.mjs <report folder>...\n')
  process.exit(2)
}
for (const folder of folders) {
  for (const file of jsonFiles(folder).sort()) {
    const out = []
    lines(JSON.parse(readFileSync(file, 'utf8')), '', out)
    for (const line of out.sort()) process.stdout.write(`${relative(folder, file)} ${line}\n`)
  }
}
