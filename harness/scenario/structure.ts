/**
 * Structural checking: walks a parsed file alongside its schemastery schema
 * and reports every mismatch (wrong type, out of range, unknown or missing
 * key) as a located problem. schemastery itself decides each leaf value;
 * the walk adds what it does not do: unknown keys, explicit nulls, and
 * wording from the nodes' hints.
 */
import Schema from '@deepseek-ai/schemastery'
import { hintOf, type Hint } from './hints.ts'
import { isRecord } from './record.ts'
import { showValue } from './show.ts'
import { didYouMean } from '../spelling/did-you-mean.ts'
import type { FieldPath, Problem } from './problem.ts'

const CONTAINER_TYPES = new Set(['object', 'dict', 'array', 'tuple'])

function hintFor(schema: Schema): Hint {
  return hintOf(schema) ?? { expected: `a value of type ${schema.toString()}`, allowed: schema.toString() }
}

function mismatch(path: FieldPath, schema: Schema, value: unknown): Problem {
  const hint = hintFor(schema)
  const problem = hint.noun !== undefined && typeof value === 'string'
    ? `unknown ${hint.noun} ${showValue(value)}${didYouMean(value, hint.names ?? [])}`
    : `expected ${hint.expected}, got ${showValue(value)}`
  return { path, problem, allowed: hint.allowed, anchor: 'value' }
}

/** Whether schemastery accepts a value for a node; other exceptions are bugs and propagate. */
function accepts(schema: Schema, value: unknown): boolean {
  try {
    schema(value)
    return true
  } catch (error) {
    if (Schema.ValidationError.is(error)) return false
    throw error
  }
}

/** Whether a union branch is the one a value is meant for: containers by shape, leaves by acceptance. */
function fits(schema: Schema, value: unknown): boolean {
  if (schema.type === 'object') return isRecord(value)
  if (schema.type === 'dict') return isRecord(value) && accepts(schema, value)
  if (schema.type === 'array' || schema.type === 'tuple') return Array.isArray(value)
  return !isRecord(value) && !Array.isArray(value) && accepts(schema, value)
}

function walkObject(value: Record<string, unknown>, schema: Schema, path: FieldPath, out: Problem[]): void {
  const fields = schema.dict ?? {}
  const known = Object.keys(fields)
  for (const [key, inner] of Object.entries(value)) {
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined
    if (field) {
      walk(inner, field, [...path, key], out)
    } else {
      out.push({
        path: [...path, key],
        problem: `unknown key ${JSON.stringify(key)}${didYouMean(key, known)}`,
        allowed: `allowed keys: ${known.join(', ')}`,
        anchor: 'key',
      })
    }
  }
  for (const [key, field] of Object.entries(fields)) {
    if (!field.meta.required || Object.hasOwn(value, key)) continue
    out.push({
      path: [...path, key],
      problem: 'required key is missing',
      allowed: hintFor(field).allowed,
      anchor: 'end',
      at: path,
    })
  }
}

function walk(value: unknown, schema: Schema, path: FieldPath, out: Problem[]): void {
  if (value === null || value === undefined) {
    out.push(mismatch(path, schema, value))
    return
  }
  switch (schema.type) {
    case 'object':
      if (isRecord(value)) walkObject(value, schema, path, out)
      else out.push(mismatch(path, schema, value))
      return
    case 'array': {
      if (!Array.isArray(value) || value.length < (schema.meta.min ?? 0)) {
        out.push(mismatch(path, schema, value))
        return
      }
      const inner = schema.inner
      if (inner) value.forEach((item: unknown, index) => walk(item, inner, [...path, index], out))
      return
    }
    case 'union': {
      const branch = schema.list?.find((candidate) => fits(candidate, value))
      if (!branch) out.push(mismatch(path, schema, value))
      else if (CONTAINER_TYPES.has(branch.type)) walk(value, branch, path, out)
      return
    }
    default:
      if (!fits(schema, value)) out.push(mismatch(path, schema, value))
  }
}

/** Every structural problem of a parsed value against a schema, in discovery order. */
export function checkStructure(value: unknown, schema: Schema): Problem[] {
  const out: Problem[] = []
  walk(value, schema, [], out)
  return out
}
