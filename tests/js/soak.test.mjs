// A short soak inside node --test (the full one: node scripts/soak.mjs, 1,000,000 calls): 50,000
// mixed calls of every operator, version and type, each answer checked against the reference, some
// with their input in a wasmTensor; the wasm heap neither grows nor moves after the first 10%.
import assert from 'node:assert/strict';
import test from 'node:test';

import * as api from '../../js/index.mjs';
import { soak } from './reliability/soak.mjs';

await api.init();

test('soak: 50,000 mixed calls, all right, wasm heap steady from the first 10%', () => {
  const result = soak(api, { calls: 50_000, seed: 7, poolSize: 2000 });
  assert.deepEqual(result.failures, []);
  assert.equal(result.samples.length, 10);
  assert.ok(result.steady, `heap moved: ${JSON.stringify({ at10: result.probe10, end: result.samples.at(-1) })}`);
  // every operator and every type it accepts was exercised: ArgMax/ArgMin 12 types, ReduceMax 11, Hardmax 4
  assert.equal(result.byKind.size, 12 + 12 + 11 + 4, [...result.byKind.keys()].join(', '));
  assert.ok(result.resident > 2000, `${result.resident} calls from a wasmTensor`); // about 1 in 10 of the small ones
});
