// The reference is checked on its own against hand-worked answers before anything is compared
// with it: a wrong reference would make every differential test wrong in the same way.
import assert from 'node:assert/strict';
import test from 'node:test';
import { tensor, valuesOf } from './helpers.mjs';
import { bfloat16Value, firstVersionAccepting, float16Value, referenceNode, resolveVersion } from './reference.mjs';

const out = (op, x, attrs, opset) => {
  const r = referenceNode(op, [x], attrs, opset);
  assert.ok(r.ok, `reference failed: ${r.kind}`);
  return r.output;
};

test('reference: 16-bit decoding', () => {
  assert.equal(float16Value(0x3c00), 1);
  assert.equal(float16Value(0xc000), -2);
  assert.equal(float16Value(0x7bff), 65504);
  assert.equal(float16Value(0x0001), 2 ** -24);
  assert.equal(float16Value(0x7c00), Infinity);
  assert.ok(Number.isNaN(float16Value(0x7c01)));
  assert.ok(Object.is(float16Value(0x8000), -0));
  assert.equal(bfloat16Value(0x3f80), 1);
  assert.equal(bfloat16Value(0xc040), -3);
  assert.equal(bfloat16Value(0x0001), 2 ** -133);
  assert.equal(bfloat16Value(0xff80), -Infinity);
  assert.ok(Number.isNaN(bfloat16Value(0x7fc1)));
});

test('reference: version resolution and type lists', () => {
  assert.equal(resolveVersion('ArgMax', 10), 1);
  assert.equal(resolveVersion('ArgMax', 12), 12);
  assert.equal(resolveVersion('ArgMax', 21), 13);
  assert.equal(resolveVersion('ArgMax', undefined), 13);
  assert.equal(resolveVersion('ReduceMax', 17), 13);
  assert.equal(resolveVersion('ReduceMax', 19), 18);
  assert.equal(resolveVersion('Hardmax', 12), 11);
  assert.equal(firstVersionAccepting('ReduceMax', 'bool'), 20);
  assert.equal(firstVersionAccepting('ReduceMax', 'int8'), 12);
  assert.equal(firstVersionAccepting('ReduceMax', 'int16'), null);
  assert.equal(firstVersionAccepting('ArgMin', 'bfloat16'), 13);
  assert.equal(firstVersionAccepting('ArgMin', 'uint16'), 1);
  assert.equal(firstVersionAccepting('ArgMax', 'bool'), null);
  assert.equal(firstVersionAccepting('Hardmax', 'int32'), null);
});

test('reference: ArgMax/ArgMin by hand', () => {
  const x = tensor('float32', [2, 1, 3, 10], [2, 2]);
  assert.deepEqual(valuesOf(out('ArgMax', x, { axis: 0 })), [1n, 1n]);
  assert.deepEqual(out('ArgMax', x, { axis: 1, keepdims: 0 }).dims, [2]);
  assert.deepEqual(valuesOf(out('ArgMin', x, { axis: 1, keepdims: 0 })), [1n, 0n]);
  const ties = tensor('int32', [5, 5, 1, 5]);
  assert.deepEqual(valuesOf(out('ArgMax', ties, {})), [0n]);
  assert.deepEqual(valuesOf(out('ArgMax', ties, { select_last_index: 1 })), [3n]);
  const nans = tensor('float64', [1, NaN, 9, NaN, 0]);
  assert.deepEqual(valuesOf(out('ArgMax', nans, {})), [1n]);
  assert.deepEqual(valuesOf(out('ArgMin', nans, {})), [1n]);
  assert.deepEqual(valuesOf(out('ArgMin', nans, { select_last_index: true })), [3n]);
  const zeros = tensor('float32', [-0, 0, -0]);
  assert.deepEqual(valuesOf(out('ArgMax', zeros, { select_last_index: 1 })), [2n]);
  const big = tensor('int64', [2n ** 53n, 2n ** 53n + 1n, 2n ** 53n]);
  assert.deepEqual(valuesOf(out('ArgMax', big, {})), [1n]);
  const x3 = tensor('float32', [0, 9, 2, 3, 4, 5, 6, 7, 8, 1, 10, 11], [2, 3, 2]);
  assert.deepEqual(valuesOf(out('ArgMax', x3, { axis: 1 })), [2n, 0n, 2n, 2n]);
  assert.deepEqual(out('ArgMax', x3, { axis: -2 }).dims, [2, 1, 2]);
  assert.equal(referenceNode('ArgMax', [tensor('float32', [], [2, 0])], { axis: 1 }).kind, 'empty-axis');
  assert.equal(referenceNode('ArgMax', [tensor('float32', [1], [])], {}).kind, 'axis');
});

test('reference: ReduceMax by hand', () => {
  const x = tensor('float32', [5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2], [3, 2, 2]);
  const r = out('ReduceMax', x, { axes: [1], keepdims: 0 }, 13);
  assert.deepEqual(r.dims, [3, 2]);
  assert.deepEqual(valuesOf(r), [20, 2, 40, 2, 60, 2]);
  assert.deepEqual(valuesOf(out('ReduceMax', x, {}, 13)), [60]);
  assert.deepEqual(valuesOf(out('ReduceMax', x, { axes: [0, 2] }, 13)), [55, 60]);
  assert.ok(Number.isNaN(valuesOf(out('ReduceMax', tensor('float32', [1, NaN, 3]), {}))[0]));
  const empty = out('ReduceMax', tensor('float16', [], [2, 0, 4]), { axes: [1] }, 13);
  assert.deepEqual(empty.dims, [2, 1, 4]);
  assert.deepEqual(Array.from(empty.data), new Array(8).fill(0xfc00));
  assert.deepEqual(Array.from(out('ReduceMax', tensor('int64', [], [0]), {}, 13).data), [-(2n ** 63n)]);
  assert.deepEqual(Array.from(out('ReduceMax', tensor('bool', [], [0]), {}, 20).data), [0]);
  const bools = referenceNode('ReduceMax', [tensor('bool', [0, 1, 0, 0], [2, 2]), tensor('int64', [1])], {}, 20);
  assert.deepEqual(valuesOf(bools.output), [1, 0]);
  const scalar = out('ReduceMax', tensor('int8', [-7], []), {}, 13);
  assert.deepEqual([scalar.dims, valuesOf(scalar)], [[], [-7]]);
  const zero = out('ReduceMax', tensor('float32', [-0, 0]), {}, 13);
  assert.deepEqual(zero.zeroEither, [0]);
  assert.ok(Object.is(out('ReduceMax', tensor('float32', [-0, -0]), {}, 13).data[0], -0));
  assert.equal(referenceNode('ReduceMax', [x], { axes: [0, -3] }, 13).kind, 'repeated-axis');
  const axes = tensor('int64', [], [0]);
  assert.deepEqual(out('ReduceMax', x, { noop_with_empty_axes: 1 }, 18).dims, [3, 2, 2]);
  assert.deepEqual(referenceNode('ReduceMax', [x, axes], { noop_with_empty_axes: 0 }, 18).output.dims, [1, 1, 1]);
  assert.equal(referenceNode('ReduceMax', [x], { axes: [1] }, 18).kind, 'attr-is-input');
  assert.equal(referenceNode('ReduceMax', [x, axes], {}, 13).kind, 'input-count');
  assert.equal(referenceNode('ReduceMax', [tensor('int16', [1])], {}, 13).first, null);
});

test('reference: Hardmax by hand', () => {
  const x = tensor('float32', [3, 0, 1, 2, 9, 9, 0, 1], [2, 2, 2]);
  // Version 13 along the last axis: pairs (3,0) (1,2) (9,9) (0,1).
  assert.deepEqual(valuesOf(out('Hardmax', x, {}, 13)), [1, 0, 0, 1, 1, 0, 0, 1]);
  // Version 11 axis 1: two rows of four: [3,0,1,2] [9,9,0,1].
  assert.deepEqual(valuesOf(out('Hardmax', x, {}, 11)), [1, 0, 0, 0, 1, 0, 0, 0]);
  // Version 1 axis 2: four rows of two.
  assert.deepEqual(valuesOf(out('Hardmax', x, { axis: 2 }, 1)), [1, 0, 0, 1, 1, 0, 0, 1]);
  // Version 13 axis 0.
  assert.deepEqual(valuesOf(out('Hardmax', x, { axis: 0 }, 13)), [0, 0, 1, 1, 1, 1, 0, 0]);
  assert.deepEqual(Array.from(out('Hardmax', tensor('float16', [1, 2]), {}, 13).data), [0, 0x3c00]);
  assert.deepEqual(Array.from(out('Hardmax', tensor('bfloat16', [NaN, 2]), {}, 13).data), [0x3f80, 0]);
});
