// wasmTensor(type, dims): a tensor allocated in the module's wasm memory, which operators read in
// place. Its answers are the reference's on every operator, version and type and on each of the
// engine's paths (also when the memory grows inside the call, which detaches the view the call
// read); its data survives memory growth; dispose() frees it, after which using it is an Error
// naming the operator and version; allocating and freeing leaks nothing; misuse is an Error, and
// the next call works.
import assert from 'node:assert/strict';
import test from 'node:test';
import { argMax, hardmax, init, reduceMax, runNode, Tensor, wasmTensor } from '../../js/index.mjs';
import { currentModule, setModule } from '../../js/module.js';
import { assertTensorEqual, prng, recordCalls } from './helpers.mjs';
import { referenceNode } from './reference.mjs';
import { POOLS, randomSmallCall, randomTensor } from './values.mjs';

await init();

const int64Tensor = (values) => ({ type: 'int64', data: BigInt64Array.from(values, BigInt), dims: [values.length] });
const throwsWith = (fn, pattern) => assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message));

// A wasmTensor holding x's values.
function residentCopy(x) {
  const t = wasmTensor(x.type, x.dims);
  t.data.set(x.data);
  return t;
}

// The call on x copied into a wasmTensor, against the reference on x; false if the reference
// says the call is invalid (then it must throw).
function checkResident(op, inputs, attrs, opset, where) {
  const expected = referenceNode(op, inputs, attrs, opset);
  const t = residentCopy(inputs[0]);
  try {
    const given = [t, ...inputs.slice(1)];
    if (!expected.ok) {
      assert.throws(() => runNode(op, given, attrs, opset), Error, where);
      return false;
    }
    const outputs = runNode(op, given, attrs, opset);
    assert.equal(outputs.length, 1, where);
    assertTensorEqual(outputs[0], expected.output, where);
    return true;
  } finally {
    t.dispose();
  }
}

test('a wasmTensor is a Tensor of the type\'s class, zeroed, in the module\'s memory', () => {
  const M = currentModule();
  const dirty = wasmTensor('float64', [1000]);
  dirty.data.fill(NaN);
  dirty.dispose();
  for (const [type, cls] of [['float32', Float32Array], ['float16', Uint16Array], ['bfloat16', Uint16Array], ['int64', BigInt64Array], ['uint64', BigUint64Array], ['bool', Uint8Array], ['float64', Float64Array]]) {
    const t = wasmTensor(type, [2, 500]);
    assert.ok(t instanceof Tensor, type);
    assert.equal(t.type, type);
    assert.deepEqual(t.dims, [2, 500]);
    assert.equal(t.size, 1000);
    assert.equal(t.data.constructor, cls, type);
    assert.equal(t.data.buffer, M.HEAPU8.buffer, `${type}: a view of the module's memory`);
    assert.equal(t.data.byteOffset % 64, 0, `${type}: on a cache line`);
    assert.ok(t.data.every((v) => v === 0 || v === 0n), `${type}: zeroed`);
    assert.equal(t.disposed, false);
    t.dispose();
  }
});

test('an input in a wasmTensor is read in place: one crossing, no chunk fed', () => {
  const M = currentModule();
  const t = wasmTensor('float32', [512, 1024]); // 2 MiB: a JS array this size streams through the staging buffer
  t.data.forEach((_, i, a) => (a[i] = Math.sin(i)));
  const feeds = (x) => recordCalls(M, '_feed', () => reduceMax(x, { axes: [-1] })).length;
  assert.ok(feeds(new Tensor('float32', t.data.slice(), t.dims)) >= 8, 'a JS array is fed in 256 KiB chunks');
  assert.equal(feeds(t), 0, 'the core reads the wasmTensor where it is');
  t.dispose();
});

test('random runs on wasmTensor inputs: every operator, version and type, against the reference', () => {
  const rng = prng(20261201);
  let checked = 0;
  for (let n = 0; n < 1500; n += 1) {
    const { op, version, type, dims, inputs, attrs } = randomSmallCall(rng, n);
    const where = `case ${n}: ${op} ${version} ${type} ${JSON.stringify(dims)} ${JSON.stringify(attrs)}`;
    if (checkResident(op, inputs, attrs, version, where)) checked += 1;
  }
  assert.ok(checked > 1200, `${checked} valid calls`);
});

// Shapes large enough for each of the engine's paths (the input is in wasm memory, so the core
// reads it whole in one crossing, or a window at a time where its state is windowed).
const windowWord = (M) => M.HEAPF64[M._responseAddress() / 8 + M.WINDOW_WORD];
const PATHS = [
  ['rows of a large input', 'ReduceMax', 'float32', [1024, 1000], { axes: [1] }, 13],
  ['outputs read back in parts', 'ArgMax', 'float32', [3, 70000], { axis: 0, keepdims: 0 }, 13],
  ['a class map', 'ArgMax', 'float16', [1, 21, 128, 128], { axis: 1, keepdims: 0 }, 13],
  ['windowed state', 'ArgMax', 'float32', [2, 600000], { axis: 0, keepdims: 1 }, 13],
  ['windowed column tiles', 'ArgMin', 'float16', [2, 3, 700, 1024], { axis: 1, keepdims: 0, select_last_index: 1 }, 13],
  ['windowed Hardmax', 'Hardmax', 'float32', [2, 600000], { axis: 0 }, 13],
  ['Hardmax, one-hot built in JS', 'Hardmax', 'bfloat16', [300, 1000], { axis: -1 }, 13],
  ['gathered windows', 'ReduceMax', 'int32', [2, 1100000, 2], { axes: [0, 2], keepdims: 0 }, 13],
  ['ReduceMax 18 identity', 'ReduceMax', 'float64', [300, 500], { noop_with_empty_axes: 1 }, 18],
];

// The module, with every crossing followed by a growth of its memory, as an allocation inside the
// core would make it: the view of the input the call read is detached when the crossing returns.
// (Blocks of 1 MiB are held until the memory grows, then freed after fn: it grows by about a fifth.)
function withGrowingRuns(fn) {
  const M = currentModule();
  const held = [];
  const grow = () => {
    for (const buffer = M.HEAPU8.buffer; M.HEAPU8.buffer === buffer; ) {
      const block = M._malloc(1 << 20);
      if (!block) throw new Error('the test could not grow the memory');
      held.push(block);
    }
  };
  setModule(Object.create(M, { _run: { value: (...args) => { const status = M._run(...args); grow(); return status; } } }));
  try {
    return fn();
  } finally {
    setModule(M);
    for (const block of held) M._free(block);
  }
}

for (const [path, op, type, dims, attrs, opset] of PATHS) {
  test(`wasmTensor input through ${path}: ${op} ${type} ${JSON.stringify(dims)}, also with the memory growing in the call`, () => {
    const rng = prng(dims.reduce((a, b) => a * b, 11));
    const x = randomTensor(rng, type, dims, POOLS[type]);
    assert.ok(checkResident(op, [x], attrs, opset, path));
    if (path.startsWith('windowed')) assert.equal(windowWord(currentModule()), 1, 'the call took the windowed path');
    const before = currentModule().HEAPU8.length;
    assert.ok(withGrowingRuns(() => checkResident(op, [x], attrs, opset, `${path}, memory growing`)));
    assert.ok(currentModule().HEAPU8.length > before, 'the memory grew');
  });
}

test('windowed column tiles read a wasmTensor where it lies: every tile in the tensor, its rows inner apart', () => {
  const M = currentModule();
  const dims = [2, 5, 1024, 1024]; // ArgMax over axis 1: 2M outputs, a windowed state
  const t = wasmTensor('float32', dims);
  t.data.forEach((_, i, a) => (a[i] = (i * 2654435761) % 1009));
  const tiles = recordCalls(M, '_feedTile', () => argMax(t, { axis: 1 }));
  assert.ok(tiles.length > 1, `${tiles.length} tiles`);
  const begin = t.data.byteOffset, end = begin + t.data.byteLength;
  for (const [at, , , w, , rows, stride] of tiles) {
    assert.ok(at >= begin && at + ((rows - 1) * stride + w) * 4 <= end, `a tile at ${at} in [${begin}, ${end})`);
    assert.equal(stride, 1024 * 1024);
  }
  t.dispose();
});

test('data is read again after memory growth, its values kept; a view kept from before is detached', () => {
  const M = currentModule();
  const t = wasmTensor('int32', [64, 1000]);
  const old = t.data;
  old.forEach((_, i, a) => (a[i] = (i * 7919) % 1013));
  const expected = Int32Array.from(old);
  const big = wasmTensor('uint8', [M.HEAPU8.length]); // more than is free: the memory grows
  assert.equal(old.length, 0, 'the old view is detached');
  assert.notEqual(t.data, old);
  assert.deepEqual(t.data, expected);
  assert.equal(t.data, t.data, 'one view until the next growth');
  const plain = { type: 'int32', data: expected, dims: [64, 1000] };
  assertTensorEqual(reduceMax(t, { axes: [1] }), referenceNode('ReduceMax', [plain, int64Tensor([1])], {}, 18).output);
  big.dispose();
  t.dispose();
});

test('dispose() frees the memory: data throws, an operator names the disposed tensor, a second dispose() does nothing', () => {
  const t = wasmTensor('float32', [2, 3]);
  t.data.set([1, 5, 2, 0, -1, 4]);
  assert.deepEqual(Array.from(argMax(t, { axis: 1 }).data), [1n, 2n]);
  t.dispose();
  assert.equal(t.disposed, true);
  throwsWith(() => t.data, /wasmTensor was disposed/);
  throwsWith(() => t.size, /wasmTensor was disposed/);
  throwsWith(() => argMax(t, { axis: 1 }), /^ArgMax version 13: input 0 is a wasmTensor that was disposed; its memory is freed$/);
  throwsWith(() => runNode('Hardmax', [t], {}, 11), /^Hardmax version 11: input 0 is a wasmTensor that was disposed/);
  const axes = wasmTensor('int64', [1]);
  axes.dispose();
  throwsWith(() => runNode('ReduceMax', [new Tensor('float32', [1, 2], [2]), axes], {}, 18), /^ReduceMax version 18: input 1 is a wasmTensor that was disposed/);
  t.dispose();
  const empty = wasmTensor('float32', [0, 4]);
  empty.dispose();
  throwsWith(() => argMax(empty), /input 0 is a wasmTensor that was disposed/);
  assert.deepEqual(Array.from(hardmax(new Tensor('float32', [3, 1], [2])).data), [1, 0], 'the next call works');
});

test('a wasmTensor may be the axes input, empty, or of a single element', () => {
  const x = wasmTensor('float32', [3, 4]);
  x.data.set([1, 9, 3, 4, 8, 2, 7, 6, 5, 0, 11, 10]);
  const axes = wasmTensor('int64', [1]);
  axes.data[0] = -1n;
  assert.deepEqual(Array.from(runNode('ReduceMax', [x, axes], { keepdims: 0 }, 18)[0].data), [9, 8, 11]);
  const empty = wasmTensor('float32', [0, 4]);
  assert.deepEqual(argMax(empty, { axis: 1 }).dims, [0, 1]);
  assert.deepEqual(Array.from(reduceMax(empty, { axes: [0] }).data), [-Infinity, -Infinity, -Infinity, -Infinity]);
  const scalar = wasmTensor('uint8', []);
  scalar.data[0] = 200;
  assert.deepEqual(Array.from(reduceMax(scalar).data), [200]);
  for (const t of [x, axes, empty, scalar]) t.dispose();
});

test('allocating, calling and disposing leaks nothing', () => {
  const M = currentModule();
  const round = () => {
    for (let i = 0; i < 200; i += 1) {
      const t = wasmTensor('float32', [256, 1024 + (i % 7)]);
      t.data[i] = 1;
      reduceMax(t, { axes: [-1] });
      t.dispose();
    }
  };
  round();
  const heap = M.HEAPU8.length;
  for (let r = 0; r < 5; r += 1) round();
  assert.equal(M.HEAPU8.length, heap, 'the heap did not grow');
});

test('misuse is an Error that names the problem, and the next call works', () => {
  throwsWith(() => wasmTensor('string', [2]), /^onnx-extrema: wasmTensor\(\): type 'string' is not a tensor type \(float32, /);
  throwsWith(() => wasmTensor(Float32Array, [2]), /^onnx-extrema: wasmTensor\(\): the type is a function, not a tensor type/);
  throwsWith(() => wasmTensor('float32'), /^onnx-extrema: wasmTensor\(\): dims are required/);
  throwsWith(() => wasmTensor('float32', 5), /^onnx-extrema: wasmTensor\(\): dims is a number; dims must be an array/);
  throwsWith(() => wasmTensor('float32', [2, -1]), /^onnx-extrema: wasmTensor\(\): dims\[1\] is -1; dims must be non-negative integers/);
  throwsWith(() => wasmTensor('float32', [1.5]), /dims\[0\] is 1.5/);
  throwsWith(() => wasmTensor('float64', [1 << 30]), /^onnx-extrema: wasmTensor\('float64', \[1073741824\]\): cannot allocate 8589934592 bytes in the module's wasm memory \(its memory is \d+ MiB of at most 4096; its free blocks and the growth left cannot hold that\)$/);
  throwsWith(() => wasmTensor('float32', [1e9, 1e9]), /cannot allocate/);
  const x = wasmTensor('float32', [2, 2]);
  x.data.set([1, 2, 4, 3]);
  // Its data as an `out` shares the module's memory.
  const resident = wasmTensor('float32', [1]);
  throwsWith(() => reduceMax(x, { axes: [0, 1] }, { out: resident.data }), /^ReduceMax version 20: .*out/);
  resident.dispose();
  // Made or disposed inside a call (a getter of its dims): an Error, and the call's own Error.
  const y = wasmTensor('float32', [2]);
  const dims = [2, 2];
  Object.defineProperty(dims, 1, { get: () => (y.dispose(), 2) });
  throwsWith(() => argMax({ type: 'float32', data: new Float32Array(4), dims }), /disposed while an onnx-extrema call was running/);
  assert.equal(y.disposed, false);
  const dims2 = [2, 2];
  Object.defineProperty(dims2, 1, { get: () => (wasmTensor('float32', [2]), 2) });
  throwsWith(() => argMax({ type: 'float32', data: new Float32Array(4), dims: dims2 }), /wasmTensor\(\) was called while an onnx-extrema call was running/);
  assert.deepEqual(Array.from(argMax(x, { axis: 1, keepdims: 0 }).data), [1n, 0n], 'the next call works');
  x.dispose();
  y.dispose();
});

test('a getter of the arguments that disposes a wasmTensor makes the call an Error, never a read of freed memory', () => {
  const freedBy = (getter) => {
    const x = wasmTensor('float32', [2, 3]);
    x.data.set([9, 1, 1, 1, 1, 9]);
    return { x, attributes: { get axis() { getter(x); return 0; } } };
  };
  const pattern = /^ArgMax version 13: a wasmTensor was disposed while the call read its arguments/;
  const plain = freedBy((x) => x.dispose());
  throwsWith(() => argMax(plain.x, plain.attributes), pattern);
  // Its block taken at once by another tensor, which the call would have read in its place.
  let other;
  const reused = freedBy((x) => { x.dispose(); other = wasmTensor('float32', [2, 3]); other.data.fill(7); });
  throwsWith(() => argMax(reused.x, reused.attributes), pattern);
  const y = wasmTensor('float32', [2]);
  y.data.set([100, 50]);
  const axes = { type: 'int64', get data() { y.dispose(); return new BigInt64Array([0n]); }, dims: [1] };
  throwsWith(() => runNode('ReduceMax', [y, axes], {}, 18), /^ReduceMax version 18: a wasmTensor was disposed while the call read its arguments/);
  assert.deepEqual(Array.from(argMax(other, { axis: 1 }).data), [0n, 0n], 'the next call works');
  other.dispose();
});

// emmalloc grows the memory for the whole of a block no free one holds, even one at the top that
// could be extended; dispose() gives that top block back (js/wasm-tensor.js: allocate). Without
// it the second tensor below grew the memory by all its 1.5 S bytes, not by the 0.5 S it lacks.
test('a larger wasmTensor after a dispose() grows the memory by what it lacks, not by its whole size', () => {
  const M = currentModule();
  const S = M.HEAPU8.length; // more than is free: the first tensor grows the memory
  wasmTensor('uint8', [S]).dispose();
  const afterFirst = M.HEAPU8.length;
  const second = wasmTensor('uint8', [1.5 * S]);
  const grown = M.HEAPU8.length - afterFirst;
  assert.ok(grown < S, `the memory grew by ${grown} bytes for ${1.5 * S}, after ${S} were freed at its top`);
  second.data[1.5 * S - 1] = 7;
  assert.deepEqual(Array.from(reduceMax(second).data), [7]);
  second.dispose();
});

// Last: the memory stays over 2 GiB for the rest of this process (reserved, not touched).
test('a wasmTensor above 2 GiB of memory (the raw allocator answers a negative i32 there)', () => {
  const M = currentModule();
  const filler = M._malloc(2 ** 31 + 2 ** 20) >>> 0; // the memory grows past 2 GiB
  assert.ok(filler, 'the memory could grow past 2 GiB');
  const t = wasmTensor('uint8', [filler + 64]); // more than all memory below the filler: it goes above
  assert.ok(t.data.byteOffset >= 2 ** 31, `the tensor at ${t.data.byteOffset}`);
  t.data[3] = 5;
  t.data[filler] = 5;
  assert.deepEqual(Array.from(argMax(t, { select_last_index: 1 }).data), [BigInt(filler)]);
  assert.deepEqual(Array.from(reduceMax(t).data), [5]);
  t.dispose();
  M._free(filler);
});
