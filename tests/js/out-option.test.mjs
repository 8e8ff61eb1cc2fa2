// The `out` option: the caller's typed array receives the output (runNode's fifth argument
// { out }, the friendly functions' { opset, out }), so a loop over frames reuses one array instead
// of paying a fresh one's page faults each call. Every way an output leaves the engine is covered
// (the one-crossing staged output, outputs read back in parts, windowed state, column tiles,
// gathered windows, Hardmax's one-hot built in JS, ReduceMax's identity copy, empty outputs): the
// answer is the reference's, the returned data is the caller's array itself, and whatever the
// array held before is overwritten. Wrong arrays are errors naming the operator and version, and
// the next call works.
import assert from 'node:assert/strict';
import test from 'node:test';
import { argMax, argMin, hardmax, init, reduceMax, runNode, Tensor } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';
import { assertTensorEqual, prng } from './helpers.mjs';
import { referenceNode } from './reference.mjs';
import { POOLS, randomSmallCall, randomTensor } from './values.mjs';

await init();

// An array of the expected output's class and length holding random bytes (stale contents a
// reused array would have: NaNs, ones where Hardmax has none, indices out of range).
function staleArray(expected, rng) {
  const out = new expected.data.constructor(expected.data.length);
  const bytes = new Uint8Array(out.buffer);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = rng.int(256);
  return out;
}

// The call with `out`, against the reference: the same tensor, with the caller's array as data.
function checkWithOut(op, inputs, attrs, opset, rng, where) {
  const expected = referenceNode(op, inputs, attrs, opset);
  if (!expected.ok) return false;
  const out = staleArray(expected.output, rng);
  const outputs = runNode(op, inputs, attrs, opset, { out });
  assert.equal(outputs.length, 1, where);
  assert.ok(outputs[0].data === out, `the output's data is the given array (${where})`);
  assertTensorEqual(outputs[0], expected.output, where);
  return true;
}

// fn throws an Error whose message matches `pattern`.
const throwsWith = (fn, pattern) => assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message));

const int64Tensor = (values) => ({ type: 'int64', data: BigInt64Array.from(values, BigInt), dims: [values.length] });

test('random runs with out: every operator, version and type, small shapes and kernel-shaped ones', () => {
  const rng = prng(20261128);
  let checked = 0;
  for (let n = 0; n < 1500; n += 1) {
    const { op, version, type, dims, inputs, attrs } = randomSmallCall(rng, n);
    const where = `case ${n}: ${op} ${version} ${type} ${JSON.stringify(dims)} ${JSON.stringify(attrs)}`;
    if (checkWithOut(op, inputs, attrs, version, rng, where)) checked += 1;
  }
  assert.ok(checked > 1200, `${checked} valid calls`);
});

// Shapes large enough for each of the engine's output paths.
const windowWord = (M) => M.HEAPF64[M._responseAddress() / 8 + M.WINDOW_WORD];
const PATHS = [
  ['outputs read back in parts', 'ArgMax', 'float32', [3, 70000], { axis: 0, keepdims: 0 }, 13],
  ['column tiles (a class map)', 'ArgMax', 'float16', [1, 21, 128, 128], { axis: 1, keepdims: 0 }, 13],
  ['column tiles in parts of rows', 'ArgMin', 'uint8', [1, 40, 64, 128], { axis: 1, select_last_index: 1 }, 13],
  ['windowed state', 'ArgMax', 'float32', [2, 600000], { axis: 0, keepdims: 1 }, 13],
  ['windowed Hardmax', 'Hardmax', 'float32', [2, 600000], { axis: 0 }, 13],
  ['Hardmax, one-hot built in JS', 'Hardmax', 'bfloat16', [300, 1000], { axis: -1 }, 13],
  ['Hardmax 11 (2-D coerced)', 'Hardmax', 'float64', [40, 30, 50], { axis: 1 }, 11],
  ['gathered windows', 'ReduceMax', 'int32', [2, 1100000, 2], { axes: [0, 2], keepdims: 0 }, 13],
  ['ReduceMax rows', 'ReduceMax', 'float16', [4096, 100], { axes: [1] }, 13],
];

for (const [path, op, type, dims, attrs, opset] of PATHS) {
  test(`out through ${path}: ${op} ${type} ${JSON.stringify(dims)}`, () => {
    const rng = prng(dims.reduce((a, b) => a * b, 7));
    const x = randomTensor(rng, type, dims, POOLS[type]);
    assert.ok(checkWithOut(op, [x], attrs, opset, rng, path));
    if (path.startsWith('windowed')) assert.equal(windowWord(currentModule()), 1, 'the call took the windowed path');
  });
}

test('out with ReduceMax 18 identity (noop_with_empty_axes) and with empty outputs', () => {
  const rng = prng(5);
  const x = randomTensor(rng, 'float32', [300, 500], POOLS.float32);
  assert.ok(checkWithOut('ReduceMax', [x, null], { noop_with_empty_axes: 1 }, 18, rng, 'identity'));
  assert.ok(checkWithOut('ReduceMax', [x, int64Tensor([])], { noop_with_empty_axes: 1 }, 20, rng, 'identity, empty axes'));
  const empty = randomTensor(rng, 'int32', [0, 5], POOLS.int32);
  assert.ok(checkWithOut('ArgMax', [empty], { axis: 1 }, 13, rng, 'empty output'));
  assert.ok(checkWithOut('Hardmax', [randomTensor(rng, 'float32', [3, 0], POOLS.float32)], {}, 13, rng, 'empty Hardmax'));
});

test('the friendly functions take { opset, out } and return the array given', () => {
  const x = new Tensor('float32', Float32Array.from({ length: 24 }, (_, i) => Math.sin(i * 1.7)), [2, 3, 4]);
  const indices = new BigInt64Array(8).fill(-5n);
  assert.ok(argMax(x, { axis: 1, keepdims: 0 }, { out: indices }).data === indices);
  assert.deepEqual(indices, argMax(x, { axis: 1, keepdims: 0 }).data);
  assert.ok(argMin(x, { axis: -1 }, { opset: 11, out: new BigInt64Array(6) }).data instanceof BigInt64Array);
  const maxima = new Float32Array(6).fill(NaN);
  assert.ok(reduceMax(x, { axes: [2], keepdims: 0 }, { opset: 18, out: maxima }).data === maxima);
  assert.deepEqual(maxima, reduceMax(x, { axes: [2], keepdims: 0 }).data);
  const ones = new Float32Array(24).fill(1);
  assert.ok(hardmax(x, { axis: 1 }, { out: ones }).data === ones);
  assert.deepEqual(ones, hardmax(x, { axis: 1 }).data);
  // One array serves call after call (a loop over frames).
  for (let k = 0; k < 3; k += 1) {
    const frame = new Tensor('float32', Float32Array.from({ length: 24 }, (_, i) => Math.cos(i * (k + 2))), [2, 3, 4]);
    assert.deepEqual(argMax(frame, { axis: 1, keepdims: 0 }, { out: indices }).data, argMax(frame, { axis: 1, keepdims: 0 }).data);
  }
});

test('out may be a Float16Array for float16 outputs, or a subclass whose methods are never run', () => {
  const bits = Uint16Array.from([0x3c00, 0x4000, 0xfc00, 0x3555, 0x7e00, 0x0000]);
  const x = { type: 'float16', data: bits, dims: [2, 3] };
  if (typeof globalThis.Float16Array === 'function') {
    const out = new globalThis.Float16Array(2);
    assert.ok(reduceMax(x, { axes: [1], keepdims: 0 }, { out }).data === out);
    assert.deepEqual(new Uint16Array(out.buffer), Uint16Array.from([0x4000, 0x7e00]));
  }
  class Guarded extends BigInt64Array {
    set() {
      throw new Error('a method of the subclass ran');
    }
    fill() {
      throw new Error('a method of the subclass ran');
    }
  }
  const guarded = new Guarded(2);
  assert.ok(argMax(x, { axis: 1 }, { out: guarded }).data === guarded);
  assert.deepEqual(Array.from(guarded), [1n, 1n]);
  class GuardedFloats extends Float32Array {
    fill() {
      throw new Error('a method of the subclass ran');
    }
  }
  const y = new Tensor('float32', Float32Array.from([1, 3, 2, 5, 4, 0]), [2, 3]);
  const oneHot = Float32Array.prototype.fill.call(new GuardedFloats(6), 9); // stale contents
  assert.ok(hardmax(y, {}, { out: oneHot }).data === oneHot);
  assert.deepEqual(Array.from(oneHot), [0, 1, 0, 1, 0, 0]);
});

// A small call's output is copied out of the staging buffer through one part of it, kept from the
// call before when the shape is the same (outputs.js: stagedPart): a frame loop's calls, a call of
// another shape, and wasm memory grown between calls (new heap views) each get their own answer.
// The copy runs no method of the caller's array (set, subarray, constructor, species).
test('calls of one shape into { out } in a row, across a memory growth, into subclasses whose methods would throw', () => {
  const rng = prng(66);
  class Throwing extends Float32Array {
    set() {
      throw new Error('a method of the subclass ran');
    }
    static get [Symbol.species]() {
      throw new Error('species was read');
    }
  }
  const shapes = [[3, 12], [3, 12], [5, 2], [10, 4], [10, 4], [3, 12]]; // 10 indices: copied by set(), not a loop
  for (let round = 0; round < 3; round += 1) {
    if (round === 1) {
      const M = currentModule();
      const before = M.HEAPU8.length;
      const block = M._malloc(before * 2); // grows the memory: the session's views are new after it
      assert.ok(block !== 0 && M.HEAPU8.length > before);
      M._free(block);
    }
    for (const dims of shapes) {
      const count = dims[0] * dims[1];
      const x = new Tensor('float32', Float32Array.from({ length: count }, () => rng.int(9) - 4), dims);
      const expected = referenceNode('ReduceMax', [x], { axes: [1] }, 13).output;
      const out = new Throwing(dims[0]).fill(NaN);
      for (const name of ['set', 'subarray', 'constructor']) Object.defineProperty(out, name, { get: () => { throw new Error(`out.${name} was read`); } });
      assert.ok(reduceMax(x, { axes: [1] }, { out }).data === out);
      assert.deepEqual(Array.from(Float32Array.prototype.values.call(out)), Array.from(expected.data), `ReduceMax ${JSON.stringify(dims)}, round ${round}`);
      const indices = new BigInt64Array(dims[0]).fill(-1n);
      const expectedIndices = referenceNode('ArgMax', [x], { axis: 1 }, 13).output;
      assert.ok(argMax(x, { axis: 1 }, { out: indices }).data === indices);
      assert.deepEqual(Array.from(indices), Array.from(expectedIndices.data), `ArgMax ${JSON.stringify(dims)}, round ${round}`);
    }
  }
});

test('a wrong out is an Error naming the operator, version and problem; the next call works', () => {
  const x = new Tensor('float32', Float32Array.from({ length: 12 }, (_, i) => (i * 7) % 5), [3, 4]);
  const wrong = [
    [new BigInt64Array(3), /option 'out' must be a BigInt64Array of 4 elements \(the output's int64 data, dims \[1,4\]\), got a BigInt64Array of 3 elements/],
    [new Float64Array(4), /option 'out' must be a BigInt64Array of 4 elements .* got a Float64Array of 4 elements/],
    [new BigUint64Array(4), /must be a BigInt64Array/],
    [[0n, 0n, 0n, 0n], /option 'out' must be a typed array .* got an Array/],
    [new DataView(new ArrayBuffer(32)), /option 'out' must be a typed array/],
    [7, /option 'out' must be a typed array .* got a number/],
    [x.data, /option 'out' shares memory with input 0/],
  ];
  for (const [out, pattern] of wrong) {
    assert.throws(() => argMax(x, { axis: 0 }, { out }), (e) => e instanceof Error && /^ArgMax version 13: /.test(e.message) && pattern.test(e.message));
    assert.throws(() => runNode('ArgMax', [x], { axis: 0 }, 12, { out }), (e) => /^ArgMax version 12: /.test(e.message) && pattern.test(e.message));
  }
  // A float16 output takes a Uint16Array (or a Float16Array), not another 16-bit class.
  const h = { type: 'float16', data: new Uint16Array(6), dims: [2, 3] };
  throwsWith(() => hardmax(h, {}, { out: new Int16Array(6) }), /^Hardmax version 13: option 'out' must be a Uint16Array( \(or Float16Array\))? of 6 elements/);
  // Overlap with the axes input counts too; adjacent memory does not.
  const shared = new BigInt64Array(8);
  const axes = { type: 'int64', data: shared.subarray(0, 1), dims: [1] };
  const y = new Tensor('int64', BigInt64Array.from([3n, 1n, 2n, 9n]), [2, 2]);
  throwsWith(() => runNode('ReduceMax', [y, axes], { keepdims: 0 }, 18, { out: shared.subarray(0, 2) }), /^ReduceMax version 18: option 'out' shares memory with input 1/);
  assert.deepEqual(runNode('ReduceMax', [y, axes], { keepdims: 0 }, 18, { out: shared.subarray(1, 3) })[0].data, BigInt64Array.from([3n, 9n]));
  // The module's own memory moves when it grows: not a place for an output.
  const M = currentModule();
  const at = M._malloc(64);
  try {
    const inHeap = new BigInt64Array(M.HEAPU8.buffer, at, 4);
    throwsWith(() => argMax(x, { axis: 0 }, { out: inHeap }), /^ArgMax version 13: option 'out' is a view of onnx-extrema's own wasm memory/);
  } finally {
    M._free(at);
  }
  // Options that are not an object are refused, so an array given bare is not silently ignored.
  for (const options of [new BigInt64Array(4), [new BigInt64Array(4)], 13, 'out']) {
    throwsWith(() => argMax(x, { axis: 0 }, options), /^ArgMax version 13: options must be an object such as \{ opset, out \}/);
    throwsWith(() => runNode('ArgMax', [x], { axis: 0 }, 11, options), /^ArgMax version 11: options must be an object such as \{ out \}, got /);
  }
  assert.deepEqual(argMax(x, { axis: 0 }, null).data, argMax(x, { axis: 0 }).data);
  // A key besides opset and out (runNode: out) is an Error: a misspelt opset ran the newest
  // version, and Hardmax 11 and 13 answer differently. Inherited keys are not the caller's options.
  const scores = new Tensor('float32', Float32Array.from([1, 3, 2, 0, 5, 4]), [1, 2, 3]);
  assert.notDeepEqual(Array.from(hardmax(scores, {}, { opset: 11 }).data), Array.from(hardmax(scores).data));
  throwsWith(() => hardmax(scores, {}, { opSet: 11 }), /^Hardmax version 13: unknown option 'opSet'; the options are opset and out/);
  throwsWith(() => argMax(x, { axis: 0 }, { opset: 11, out: new BigInt64Array(4), outt: 1 }), /^ArgMax version 11: unknown option 'outt'/);
  throwsWith(() => runNode('ArgMax', [x], { axis: 0 }, undefined, { opset: 11 }), /^ArgMax version 13: runNode takes the opset as its fourth argument, not as option 'opset'/);
  throwsWith(() => runNode('ArgMax', [x], { axis: 0 }, 11, { output: new BigInt64Array(4) }), /^ArgMax version 11: unknown option 'output'; runNode's one option is out/);
  assert.deepEqual(argMax(x, { axis: 0 }, Object.create({ opst: 11 })).data, argMax(x, { axis: 0 }).data);
  const out = new BigInt64Array(4);
  assert.deepEqual(argMax(x, { axis: 0 }, { out }).data, BigInt64Array.from([1n, 2n, 0n, 1n]));
});

test("out in another SharedArrayBuffer of the input's memory is found to share it; other shared memory is not", () => {
  // ArgMax over axis 0 of [2, 2^20] is windowed: outputs are written while the input is still read,
  // so an output over the input's bytes gave wrong indices (1,015,808 of 1,048,576).
  const n = 1 << 20;
  const windowed = (data) => new Tensor('float32', data, [2, n]);
  const fill = (data) => (data.fill(1, 0, n), data.fill(0.5, n, 2 * n));
  const cases = [];
  const sab = new SharedArrayBuffer(16 * n); // the input's 8 MiB, then room for an out that starts at row 1
  cases.push(['structuredClone', new Float32Array(sab, 0, 2 * n), structuredClone(sab)]);
  const memory = new WebAssembly.Memory({ initial: 256, maximum: 320, shared: true });
  const before = new Float32Array(memory.buffer, 0, 2 * n);
  memory.grow(1); // a new SharedArrayBuffer of the same memory
  cases.push(['a shared WebAssembly.Memory grown', before, memory.buffer]);
  for (const [how, data, alias] of cases) {
    fill(data);
    assert.notEqual(alias, data.buffer);
    for (const offset of [0, 4 * n]) { // out over row 0's bytes, over row 1's
      throwsWith(() => argMax(windowed(data), { axis: 0, keepdims: 0 }, { out: new BigInt64Array(alias, offset, n) }),
        /^ArgMax version 13: option 'out' shares memory with input 0/);
      assert.ok(data.subarray(0, n).every((v) => v === 1) && data.subarray(n).every((v) => v === 0.5), `${how}: the input is as it was`);
    }
    // Past the input's bytes in the same memory: no overlap, and the answer is right.
    const tail = new SharedArrayBuffer(2 * n * 4 + 8 * n);
    const input = new Float32Array(tail, 0, 2 * n);
    fill(input);
    const out = new BigInt64Array(structuredClone(tail), 2 * n * 4, n);
    assert.ok(argMax(windowed(input), { axis: 0, keepdims: 0 }, { out }).data.every((v) => v === 0n), how);
  }
  // Two SharedArrayBuffers of different memory: no false alarm.
  const data = fill(new Float32Array(new SharedArrayBuffer(2 * n * 4)));
  const out = new BigInt64Array(new SharedArrayBuffer(8 * n)).fill(7n);
  assert.ok(argMax(windowed(data), { axis: 0, keepdims: 0 }, { out }).data.every((v) => v === 0n));
  const small = new Float32Array(new SharedArrayBuffer(32), 0, 4);
  small.set([1, 4, 2, 3]);
  const alias = structuredClone(small.buffer);
  assert.deepEqual(reduceMax(new Tensor('float32', small, [2, 2]), { axes: [1] }, { out: new Float32Array(alias, 16, 2) }).data, Float32Array.from([4, 3]));
  throwsWith(() => reduceMax(new Tensor('float32', small, [2, 2]), { axes: [1] }, { out: new Float32Array(alias, 12, 2) }), /^ReduceMax version 20: option 'out' shares memory with input 0/);
  assert.deepEqual(small, Float32Array.from([1, 4, 2, 3]));
});

test('an error from a call with out leaves the array for the caller and the module working', () => {
  const x = new Tensor('float32', new Float32Array(6), [2, 3]);
  const out = new BigInt64Array(3).fill(42n);
  throwsWith(() => argMax(x, { axis: 5 }, { out }), /^ArgMax version 13: .*out of range/);
  assert.deepEqual(out, BigInt64Array.from([42n, 42n, 42n]), 'a call refused before it ran leaves out as it was');
  assert.deepEqual(argMax(x, { axis: 0 }, { out }).data, new BigInt64Array(3));
});

test('a wrong out on the streamed, tiled and windowed paths is an Error there too; the module neither leaks nor stalls', () => {
  const M = currentModule();
  const rng = prng(11);
  const cases = [
    ['streamed rows', randomTensor(rng, 'float32', [300, 1000], POOLS.float32), { axis: 1 }, 300],
    ['column tiles', randomTensor(rng, 'float32', [1, 21, 128, 128], POOLS.float32), { axis: 1, keepdims: 0 }, 128 * 128],
    ['windowed state', randomTensor(rng, 'float32', [2, 600000], POOLS.float32), { axis: 0, keepdims: 0 }, 600000],
  ];
  for (const [what, x, attrs, count] of cases) {
    const right = new BigInt64Array(count);
    const want = argMax(x, attrs).data;
    const heapBytes = M.HEAPU8.length;
    for (let k = 0; k < 3; k += 1) {
      throwsWith(() => argMax(x, attrs, { out: new BigInt64Array(count + 1) }), new RegExp(`^ArgMax version 13: option 'out' must be a BigInt64Array of ${count} elements`));
      throwsWith(() => argMax(x, attrs, { out: new Float64Array(count) }), /^ArgMax version 13: option 'out' must be a BigInt64Array/);
    }
    assert.equal(M.HEAPU8.length, heapBytes, `${what}: the wasm heap did not grow across the failed calls`);
    assert.deepEqual(argMax(x, attrs, { out: right }).data, want, `${what}: the next call`);
  }
});
