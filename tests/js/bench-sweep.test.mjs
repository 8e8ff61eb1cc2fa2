// The benchmark's sweep (`--set=sweep`): its cases are well formed, its section sorts by the
// speedup and counts the cases below the goal, and the reference it checks outputs against
// honours select_last_index (the sweep's argmin_rows_last cases rely on it).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { CASES, SWEEP_CASES, findCases } from '../../bench/lib/cases.mjs';
import { makeInput } from '../../bench/lib/data.mjs';
import { compare, reference } from '../../bench/lib/reference.mjs';
import { sweepSection } from '../../bench/lib/sweep.mjs';
import { goalOver } from '../../bench/lib/targets.mjs';

test('sweep cases: unique names, whole shapes, Hardmax only in its types, apart from the main set', () => {
  const names = SWEEP_CASES.map((c) => c.name);
  assert.equal(new Set(names).size, names.length);
  for (const c of SWEEP_CASES) {
    assert.ok(c.dims.every(Number.isInteger), c.name);
    assert.ok(c.count >= 3000 && c.count <= 1.1 * 2 ** 20, `${c.name}: ${c.count} elements`);
    if (c.op === 'Hardmax') assert.ok(['float32', 'float16', 'bfloat16', 'float64'].includes(c.type), c.name);
  }
  assert.deepEqual(findCases(null, 'sweep'), SWEEP_CASES);
  assert.deepEqual(findCases(null), CASES);
  assert.equal(findCases(['argmax_mid3.large.uint8'])[0].dims.join(), '1366,256,3');
  assert.throws(() => findCases(null, 'nope'), /unknown set 'nope'/);
});

test('sweep section: thinnest margin first, cases below each peer\'s goal counted, a peer that failed left out', () => {
  const c = (name) => ({ ...SWEEP_CASES.find((k) => k.name === name), shape: name });
  const ok = (us) => ({ status: 'ok', medianUs: us });
  const run = {
    kinds: { peers: ['ort-web-1t', 'ort-web-2t'] },
    cases: [
      { case: c('argmax_rows.large.float32'), columns: { 'onnx-extrema': ok(100), 'ort-web-1t': ok(900), 'ort-web-2t': ok(500) } },
      { case: c('argmax_mid3.large.uint8'), columns: { 'onnx-extrema': ok(100), 'ort-web-1t': ok(150), 'ort-web-2t': ok(150) } },
      { case: c('reducemax_rows7.large.int32'), columns: { 'onnx-extrema': ok(100), 'ort-web-1t': ok(250), 'ort-web-2t': ok(250) } },
      { case: c('reducemax_all.large.float64'), columns: { 'onnx-extrema': ok(100), 'ort-web-1t': { status: 'n/a' }, 'ort-web-2t': ok(120) } },
    ],
  };
  const md = sweepSection(run, goalOver);
  // 3x asked over one thread, 2x over two (the targets): 2.5x misses the one, not the other
  assert.match(md, /### vs ort-web-1t: 3 cases, 2 below 3×/);
  assert.match(md, /### vs ort-web-2t: 4 cases, 2 below 2×/);
  const oneThread = md.slice(0, md.indexOf('### vs ort-web-2t'));
  const order = oneThread.split('\n').filter((l) => l.startsWith('| ') && !/^\| (case|---)/.test(l)).map((l) => l.split(' | ')[0].slice(2));
  assert.deepEqual(order, ['argmax_mid3.large.uint8', 'reducemax_rows7.large.int32', 'argmax_rows.large.float32']);
  assert.match(md, /\| 1\.50× \|/);
});

test('reference: select_last_index takes the last of tied values, and the last NaN', () => {
  const argmin = (x, last) => reference({ op: 'ArgMin', dims: [1, x.length], count: x.length, type: 'float32', attrs: { axis: -1, select_last_index: last } }, x);
  assert.deepEqual(argmin([3, 1, 2, 1, 5], 0), [1]);
  assert.deepEqual(argmin([3, 1, 2, 1, 5], 1), [3]);
  assert.deepEqual(argmin([3, NaN, 2, NaN, 1], 0), [1]);
  assert.deepEqual(argmin([3, NaN, 2, NaN, 1], 1), [3]);
});

test('sweep types: every type onnxruntime-web runs these operators in, int8 and int64 included', () => {
  const types = new Set(SWEEP_CASES.map((c) => c.type));
  for (const t of ['float32', 'float16', 'float64', 'int8', 'uint8', 'int32', 'int64']) assert.ok(types.has(t), t);
  const x8 = makeInput({ name: 'i8', type: 'int8', count: 4096 });
  assert.ok(x8 instanceof Int8Array && x8.some((v) => v < 0) && x8.some((v) => v > 0));
  const x64 = makeInput({ name: 'i64', type: 'int64', count: 4096 });
  assert.ok(x64 instanceof BigInt64Array && x64.some((v) => v < -(2n ** 53n)) && x64.some((v) => v > 2n ** 53n));
});

test('reference: int64 values compare exactly, beyond 2^53', () => {
  const x = BigInt64Array.from([2n ** 62n, 2n ** 62n + 1n, -(2n ** 63n)]);
  const c = { op: 'ReduceMax', dims: [1, 3], count: 3, type: 'int64', axes: [-1], attrs: {} };
  const expected = reference(c, x);
  assert.deepEqual(expected, [2n ** 62n + 1n]);
  assert.equal(compare(expected, BigInt64Array.from([2n ** 62n + 1n])), null);
  assert.match(compare(expected, BigInt64Array.from([2n ** 62n])), /1 of 1 differ/);
  const arg = { op: 'ArgMax', dims: [1, 3], count: 3, type: 'int64', attrs: { axis: -1 } };
  assert.equal(compare(reference(arg, x), BigInt64Array.from([1n])), null);
});
