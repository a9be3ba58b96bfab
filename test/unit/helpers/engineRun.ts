/**
 * Running the engine in tests: every response is checked against the response
 * schema and the output-hygiene rules on the way out, so no test can pass on a
 * malformed or leaky response.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runRequest } from '../../../src/core/engine/engine';
import type { EngineOptions } from '../../../src/core/engine/options';
import { responseSchema, type EngineResponse, type ErrorEnvelope, type SuccessResponse } from '../../../src/core/contract/schemas';
import { assertHygienic } from '../../shared/hygiene';

export async function run(tool: string, input: unknown, options: EngineOptions): Promise<EngineResponse> {
  const response = (await runRequest(tool, input, options)).response;
  assertValidResponse(response);
  return response;
}

export function assertValidResponse(response: unknown): asserts response is EngineResponse {
  assertMatchesSchema(response);
  assertHygienic(response);
}

/** The schema half of assertValidResponse, for the one caller that must hold back the hygiene half. */
export function assertMatchesSchema(response: unknown): asserts response is EngineResponse {
  const parsed = responseSchema.safeParse(response);
  assert.ok(parsed.success, `response does not match the schema: ${JSON.stringify(parsed.error?.issues)}\n${JSON.stringify(response)}`);
}

export function failureOf(response: EngineResponse): ErrorEnvelope {
  assert.equal(response.success, false, `expected a failure, got ${JSON.stringify(response)}`);
  return response as ErrorEnvelope;
}

export function successOf(response: EngineResponse): SuccessResponse {
  assert.equal(response.success, true, `expected a success, got ${JSON.stringify(response)}`);
  return response as SuccessResponse;
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => { waits.push(ms); } };
}

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'fixtures', 'engine');

/** A fixture file as a store seed: its text without the BOM, and whether it had one. */
export function fixture(name: string): { text: string; bom: boolean } {
  const bytes = readFileSync(join(FIXTURES, name));
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { text: bytes.subarray(bom ? 3 : 0).toString('utf8'), bom };
}
