// The per-call shortcuts of js/engine.js and the wasm edge, end to end: heap views kept between
// calls (re-made after memory grows, inside a call or outside), and the core's reuse of the last
// plan when a request repeats word for word. Every answer against the plain reference.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';
import { checkAgainstReference, prng, tensor } from './helpers.mjs';
import { randomTensor } from './values.mjs';

const small = (rng, type = 'float32', dims = [2, 5]) => randomTensor(rng, type, dims);

test('small calls after the wasm memory grew, outside a call and inside one', async () => {
  await init();
  const M = currentModule();
  const rng = prng(41);
  checkAgainstReference(runNode, 'ArgMax', [small(rng)], { axis: 1 }, 13, 'before growth');
  // Inside a call: the heap's free top held but for 1 MiB, then a call whose full state (under
  // the 4 MiB a window starts at) needs more: ArgMax over axis 0 of [2, 500000] keeps 2 MB of
  // values and 2 MB of indices. (A free block found lower down would serve it: the heap is fresh.)
  const probe = M._malloc(1 << 20);
  assert.ok(probe, 'the probe allocation');
  M._free(probe);
  const hog = M._malloc(M.HEAPU8.length - (probe + (1 << 20)));
  assert.ok(hog, 'the heap held');
  try {
    const heapBefore = M.HEAPU8.buffer;
    const columns = 500000;
    const big = new Float32Array(2 * columns);
    big.fill(7, columns); // row 1 holds every maximum
    const out = runNode('ArgMax', [{ type: 'float32', data: big, dims: [2, columns] }], { axis: 0, keepdims: 0 }, 13)[0];
    assert.notEqual(M.HEAPU8.buffer, heapBefore, 'memory grew inside the call');
    assert.equal(out.data.length, columns);
    assert.ok(out.data.every((v) => v === 1n));
  } finally {
    M._free(hog);
  }
  checkAgainstReference(runNode, 'ArgMax', [small(rng)], { axis: 1 }, 13, 'after growth inside a call');
  // Outside a call: a direct allocation larger than the heap grows it (detaching every view).
  const before = M.HEAPU8.buffer;
  const block = M._malloc(M.HEAPU8.length + (16 << 20));
  assert.ok(block, 'the test allocation');
  M._free(block);
  assert.notEqual(M.HEAPU8.buffer, before, 'memory grew');
  checkAgainstReference(runNode, 'ArgMax', [small(rng)], { axis: 1 }, 13, 'after growth outside a call');
  checkAgainstReference(runNode, 'ReduceMax', [small(rng, 'float64')], { keepdims: 0 }, 13, 'after growth, another dtype');
  checkAgainstReference(runNode, 'ArgMin', [small(rng, 'int32')], { axis: 0 }, 13, 'after both');
  checkAgainstReference(runNode, 'Hardmax', [small(rng, 'float16')], { axis: 1 }, 13, 'after both');
});

test('repeated requests: the same words with new data, interleaved with other calls and errors', async () => {
  await init();
  const rng = prng(42);
  const shapes = [
    ['ArgMax', 'float32', [1, 10], { axis: -1 }, 13],
    ['ArgMin', 'int8', [3, 4], { axis: 0, select_last_index: 1 }, 13],
    ['ReduceMax', 'bfloat16', [2, 3, 4], { keepdims: 0, axes: [0, 2] }, 13],
    ['Hardmax', 'float64', [4, 6], {}, 11],
  ];
  const errors = [
    () => runNode('ArgMax', [small(rng)], { axis: 7 }, 13),
    () => runNode('ArgMax', [small(rng, 'bool')], { axis: 0 }, 13),
    () => runNode('ArgMax', [{ type: 'float32', data: new Float32Array(3), dims: [2, 2] }], {}, 13),
  ];
  for (let i = 0; i < 600; i += 1) {
    const [op, type, dims, attrs, opset] = shapes[rng.int(rng.chance(0.7) ? 1 : shapes.length)];
    checkAgainstReference(runNode, op, [randomTensor(rng, type, dims)], attrs, opset, `call ${i} ${op} ${type}`);
    if (rng.chance(0.1)) assert.throws(errors[rng.int(errors.length)], Error);
  }
  // The same request words, the same data: the same answer, every time.
  const x = tensor('float32', [3, 1, 4, 1, 5, 9, 2, 6, 5, 3], [1, 10]);
  for (let i = 0; i < 5; i += 1) assert.deepEqual(Array.from(runNode('ArgMax', [x], { axis: -1 }, 13)[0].data), [5n]);
  // An error right after a cached request, then the cached request again.
  assert.throws(() => runNode('ArgMax', [x], { axis: -1, keepdims: 2 }, 13), /keepdims/);
  assert.deepEqual(Array.from(runNode('ArgMax', [x], { axis: -1 }, 13)[0].data), [5n]);
});
