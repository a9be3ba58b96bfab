/**
 * A quick check that a request fits its JSON Schema, so that a valid request is
 * accepted without loading zod (most of the CLI's start-up, before). The schemas
 * are the ones generated from the zod schemas (contract/requestSchemas.json, kept in
 * step by npm run generate-schemas and a drift test).
 *
 * The check only ever says yes when zod would: it knows the few keywords those
 * schemas use, and says no to anything else (another keyword, an object that is not
 * plain). A no is not a verdict: zod then decides, and explains what is wrong.
 */
import requestSchemas from '../contract/requestSchemas.json';
import type { ToolName } from '../contract/toolNames';

interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: JsonSchema;
}

/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set(['$schema', 'description', 'title']);
const KNOWN = new Set([...ANNOTATIONS, 'type', 'properties', 'required', 'additionalProperties', 'items']);

const SCHEMAS: Readonly<Record<ToolName, JsonSchema>> = requestSchemas;

/** True only when `input` certainly fits the tool's request schema. */
export function fitsRequestSchema(tool: ToolName, input: unknown): boolean {
  return fits(SCHEMAS[tool], input);
}

function fits(schema: JsonSchema, value: unknown): boolean {
  if (Object.keys(schema).some((keyword) => !KNOWN.has(keyword))) {
    return false;
  }
  switch (schema.type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && schema.items !== undefined && everyItemFits(schema.items, value);
    case 'object':
      return isPlainObject(value) && objectFits(schema, value);
    default:
      return false;
  }
}

function everyItemFits(items: JsonSchema, values: readonly unknown[]): boolean {
  for (let index = 0; index < values.length; index++) {
    if (!(index in values) || !fits(items, values[index])) {
      return false;
    }
  }
  return true;
}

function objectFits(schema: JsonSchema, value: Record<string, unknown>): boolean {
  const properties = schema.properties ?? {};
  if (schema.additionalProperties !== false) {
    return false;
  }
  for (const key of schema.required ?? []) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) {
      return false;
    }
  }
  const required = new Set(schema.required ?? []);
  for (const key of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    // A getter could answer differently on a second read; a hidden key is one zod may see otherwise.
    if (!Object.prototype.hasOwnProperty.call(properties, key) || !descriptor?.enumerable || !('value' in descriptor)) {
      return false;
    }
    // zod takes undefined for an optional field as absent.
    if (!(value[key] === undefined && !required.has(key)) && !fits(properties[key], value[key])) {
      return false;
    }
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.getOwnPropertySymbols(value).length === 0;
}
