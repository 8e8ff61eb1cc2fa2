// Tensor-likes: plain objects, getter-based classes (onnxruntime-web's ort.Tensor shape), views at
// an offset into a larger buffer, SharedArrayBuffer views, views of the wasm heap itself, and the
// exported Tensor class.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Tensor, argMax, argMin, hardmax, init, reduceMax, runNode } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';
import { assertTensorEqual, checkAgainstReference, prng, tensor } from './helpers.mjs';
import { TYPES, referenceNode } from './reference.mjs';
import { POOLS, randomTensor } from './values.mjs';

await init();

// ort.Tensor keeps its fields behind getters; this one also counts the reads.
class GetterTensor {
  #type;
  #data;
  #dims;
  constructor(type, data, dims) {
    this.#type = type;
    this.#data = data;
    this.#dims = dims;
    this.reads = 0;
  }
  get type() {
    this.reads += 1;
    return this.#type;
  }
  get data() {
    this.reads += 1;
    return this.#data;
  }
  get dims() {
    this.reads += 1;
    return this.#dims;
  }
}

const copy = (t) => ({ type: t.type, data: t.data.slice(), dims: [...t.dims] });

test('plain objects and getter classes give the same answers as the reference', () => {
  const rng = prng(7);
  for (const type of Object.keys(TYPES)) {
    const plain = randomTensor(rng, type, [3, 5]);
    const op = type === 'bool' ? 'ReduceMax' : 'ArgMax';
    const attrs = op === 'ArgMax' ? { axis: 1 } : {};
    checkAgainstReference(runNode, op, [plain], attrs, undefined, type);
    const getters = new GetterTensor(plain.type, plain.data, plain.dims);
    const expected = referenceNode(op, [plain], attrs);
    if (expected.ok) {
      assertTensorEqual(runNode(op, [getters], attrs)[0], expected.output, `getters ${type}`);
      assert.ok(getters.reads >= 3, 'read through the getters');
    }
    // Frozen objects and objects with extra fields are fine.
    const frozen = Object.freeze({ ...plain, extra: 'ignored', location: 'cpu' });
    if (expected.ok) assertTensorEqual(runNode(op, [frozen], attrs)[0], expected.output, `frozen ${type}`);
  }
});

test('getters that call the package themselves (lazy tensors) do not disturb the outer call', () => {
  const inner = tensor('float32', [5, 1, 7, 3]);
  const lazyData = { type: 'float32', dims: [2, 2], get data() { argMax(inner); return new Float32Array([1, 2, 4, 3]); } };
  assert.deepEqual(Array.from(runNode('ArgMax', [lazyData], { axis: 1, keepdims: 0 }, 13)[0].data), [1n, 0n]);
  const lazyDims = { type: 'float32', data: new Float32Array([1, 2, 4, 3]), get dims() { reduceMax(inner, { axes: [0] }); return [2, 2]; } };
  const axes = tensor('int64', [1]);
  assert.deepEqual(Array.from(runNode('ReduceMax', [lazyDims, axes], { keepdims: 0 }, 18)[0].data), [2, 4]);
  const lazyAxes = { type: 'int64', dims: [1], get data() { hardmax(inner); return new BigInt64Array([0n]); } };
  assert.deepEqual(Array.from(runNode('ReduceMax', [lazyDims, lazyAxes], { keepdims: 0 }, 18)[0].data), [4, 3]);
  const lazyAttributes = { get axis() { argMin(inner, { axis: 0 }); return 0; }, keepdims: 0 };
  assert.deepEqual(Array.from(argMax(lazyDims, lazyAttributes).data), [1n, 1n]);
});

test('outputs can be handed to an ort.Tensor-like constructor and back in', () => {
  const x = tensor('float32', [1, 8, 3, 8, 2, 0], [2, 3]);
  const m = reduceMax(x, { axes: [1] });
  assert.ok(m instanceof Tensor);
  const again = new GetterTensor(m.type, m.data, m.dims);
  assert.deepEqual(Array.from(argMax(again, { axis: 0 }).data), [0n]);
  const idx = argMax(x, { axis: 1, keepdims: 0 });
  assert.deepEqual(Array.from(reduceMax(new GetterTensor(idx.type, idx.data, idx.dims)).data), [1n]);
});

// Fills a buffer with sentinels that would win if they leaked into the view: the type's largest
// (and NaN) for ArgMax/ReduceMax/Hardmax, the smallest for ArgMin.
function sentinelView(type, values, before, after, sentinel, Buffer = ArrayBuffer) {
  const Class = TYPES[type].array;
  const buffer = new Buffer((before + values.length + after) * Class.BYTES_PER_ELEMENT);
  new Class(buffer).fill(sentinel);
  const view = new Class(buffer, before * Class.BYTES_PER_ELEMENT, values.length);
  view.set(values);
  return view;
}

const LARGEST = { float32: NaN, float64: NaN, float16: 0x7e00, bfloat16: 0x7fc0, int8: 127, uint8: 255, int16: 32767, uint16: 65535, int32: 2147483647, uint32: 4294967295, int64: 2n ** 63n - 1n, uint64: 2n ** 64n - 1n, bool: 1 };
const SMALLEST = { float32: -Infinity, float64: -Infinity, float16: 0xfc00, bfloat16: 0xff80, int8: -128, uint8: 0, int16: -32768, uint16: 0, int32: -2147483648, uint32: 0, int64: -(2n ** 63n), uint64: 0n, bool: 0 };

for (const Buffer of [ArrayBuffer, SharedArrayBuffer]) {
  test(`views at an offset into a larger ${Buffer.name}: nothing before or after leaks in`, () => {
    const rng = prng(11);
    for (const type of Object.keys(TYPES)) {
      const noWinner = POOLS[type].filter((v) => v !== LARGEST[type] && v !== SMALLEST[type] && !(typeof v === 'number' && v !== v));
      for (const [before, after] of [[1, 1], [3, 17], [64, 0], [0, 5]]) {
        const x = randomTensor(rng, type, [4, 6], noWinner);
        const dims = [4, 6];
        const high = { type, dims, data: sentinelView(type, x.data, before, after, LARGEST[type], Buffer) };
        const low = { type, dims, data: sentinelView(type, x.data, before, after, SMALLEST[type], Buffer) };
        assert.equal(high.data.byteOffset, before * TYPES[type].array.BYTES_PER_ELEMENT);
        const where = `${type} ${Buffer.name} offset ${before}`;
        for (const [op, attrs, input] of [
          ['ArgMax', { axis: 1 }, high],
          ['ArgMax', { axis: 0, select_last_index: 1 }, high],
          ['ArgMin', { axis: 1 }, low],
          ['ArgMin', { axis: 0, keepdims: 0 }, low],
          ['ReduceMax', {}, high],
          ['Hardmax', { axis: 0 }, high],
        ]) {
          const expected = referenceNode(op, [copy(x)], attrs);
          if (!expected.ok) continue; // type not accepted: covered elsewhere
          assertTensorEqual(runNode(op, [input], attrs)[0], expected.output, `${op} ${where}`);
        }
        // Identity (ReduceMax noop) copies only the view.
        if (type !== 'int16' && type !== 'uint16') {
          const same = runNode('ReduceMax', [high], { noop_with_empty_axes: 1 }, 20)[0];
          assert.deepEqual(Array.from(same.data), Array.from(x.data), `identity ${where}`);
          assert.equal(same.data.buffer.byteLength, same.data.byteLength, 'the output owns its buffer');
        }
      }
    }
  });
}

test('a view into the wasm heap itself is read correctly', () => {
  const M = currentModule();
  const n = 40;
  const pointer = M._malloc(n * 4 + 16);
  try {
    const values = Array.from({ length: n }, (_, i) => ((i * 13) % 17) - 8);
    values[29] = 99;
    new Float32Array(M.HEAPF32.buffer, pointer + 4, n).set(values);
    const x = { type: 'float32', data: new Float32Array(M.HEAPF32.buffer, pointer + 4, n), dims: [5, 8] };
    const expected = referenceNode('ArgMax', [{ ...x, data: Float32Array.from(values) }], { axis: 1 }).output;
    assertTensorEqual(argMax(x, { axis: 1 }), expected);
    assert.deepEqual(Array.from(reduceMax(x).data), [99]);
    const expectedMin = referenceNode('ArgMin', [{ ...x, data: Float32Array.from(values) }], { axis: 0, keepdims: 0 }).output;
    assertTensorEqual(argMin(x, { axis: 0, keepdims: 0 }), expectedMin);
    assert.deepEqual(Array.from(x.data), values, 'the input is left untouched');
  } finally {
    M._free(pointer);
  }
});

test('the Tensor class: dims default, Array conversion, errors', () => {
  const t = new Tensor('float32', new Float32Array([1, 2, 3]));
  assert.deepEqual([t.type, t.dims, t.size], ['float32', [3], 3]);
  assert.deepEqual(Array.from(new Tensor('int32', [1, -2, 3], [3, 1]).data), [1, -2, 3]);
  assert.equal(new Tensor('int32', [1, -2, 3], [3, 1]).data.constructor, Int32Array);
  assert.deepEqual(Array.from(new Tensor('int64', [1n, -(2n ** 63n)]).data), [1n, -(2n ** 63n)]);
  assert.equal(new Tensor('uint64', [2n ** 64n - 1n]).data[0], 2n ** 64n - 1n);
  assert.deepEqual(Array.from(new Tensor('bool', [true, false, 1, 0]).data), [1, 0, 1, 0]);
  // Any truthy entry is true: bool data holds 0/1 only (api.md), never 2 or 255.
  assert.deepEqual(Array.from(new Tensor('bool', [2, -1, 0.5, 'yes', 0, NaN, '']).data), [1, 1, 1, 1, 0, 0, 0]);
  assert.deepEqual(new Tensor('float64', [], [0, 4]).dims, [0, 4]);
  assert.deepEqual(new Tensor('float64', [7], []).dims, []);
  assert.deepEqual(new Tensor('float32', new Float32Array(6), new Int32Array([2, 3])).dims, [2, 3]);

  const throwsError = (fn, pattern) => {
    assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message));
  };
  throwsError(() => new Tensor('float32', new Float32Array(5), [2, 3]), /need 6 elements but data has 5/);
  throwsError(() => new Tensor('float32', new Float32Array(0), [-1]), /non-negative integers/);
  throwsError(() => new Tensor('float32', new Float32Array(2), [2.5]), /non-negative integers/);
  throwsError(() => new Tensor('float16', [1, 2]), /float16/);
  throwsError(() => new Tensor('bfloat16', [1, 2]), /bfloat16/);
  throwsError(() => new Tensor('int64', [1, 2]), /cannot convert/);
  throwsError(() => new Tensor('float32', new Float64Array(2)), /Float32Array/);
  throwsError(() => new Tensor('complex64', new Float32Array(2)), /not a tensor type/);
  throwsError(() => new Tensor('float32', 'abc'), /data/);
  throwsError(() => new Tensor('float32', new Float32Array(1), 'abc'), /dims/);
  // dims checked entry by entry as read: a sparse Array of any length fails at once (it crashed
  // the process when copied whole first), a Symbol is named, an absurd rank is refused.
  throwsError(() => new Tensor('float32', new Float32Array(6), [2, -3]), /^Tensor: dims\[1\] is -3; dims must be non-negative integers/);
  throwsError(() => new Tensor('float32', new Float32Array(6), [, 6]), /^Tensor: dims\[0\] is undefined/);
  throwsError(() => new Tensor('float32', new Float32Array(1), [Symbol('d')]), /^Tensor: dims\[0\] is a symbol/);
  throwsError(() => new Tensor('float32', new Float32Array(1), new Array(2 ** 32 - 1)), /^Tensor: dims has 4294967295 entries/);
  // dims that do not fit a plain Array are an Error before it is converted (16 GB, made first).
  throwsError(() => new Tensor('float32', new Array(2 ** 32 - 1), [2, 3]), /^Tensor: dims \[2,3\] need 6 elements but data has 4294967295/);
  // An undefined entry of a plain Array (a hole) is an Error at once: a sparse Array of 2^31
  // holes without dims was gathered whole (20 GB, minutes).
  throwsError(() => new Tensor('uint8', new Array(2 ** 31)), /^Tensor: data\[0\] is undefined \(a hole of a sparse Array\)/);
  throwsError(() => new Tensor('float32', [1, undefined, 3]), /^Tensor: data\[1\] is undefined; the entries/);
  throwsError(() => new Tensor('int64', [1n, 2]), /^Tensor: cannot convert the Array to BigInt64Array: data\[1\]: /);
  const sparse = new Array(60000);
  sparse[0] = 1;
  throwsError(() => new Tensor('float32', new Float32Array(1), sparse), /^Tensor: dims\[1\] is undefined/);
  // A Tensor is accepted by the operators like any tensor-like.
  assert.deepEqual(Array.from(reduceMax(new Tensor('int8', [3, -1, 7])).data), [7]);
  assert.deepEqual(Array.from(hardmax(new Tensor('float64', [3, -1, 7], [1, 3])).data), [0, 0, 1]);
});

test('a plain tensor-like without dims is 1-D, [data.length]; a shape property is not read', () => {
  const data = new Float32Array([1, 7, 2, 5, 9, 3]);
  const flat = argMax({ type: 'float32', data }, { keepdims: 0 });
  assert.deepEqual([flat.dims, Array.from(flat.data)], [[], [4n]]);
  const withShape = reduceMax({ type: 'float32', data, shape: [2, 3] }, { axes: [-1] });
  assert.deepEqual([withShape.dims, Array.from(withShape.data)], [[1], [9]]);
  const rows = reduceMax({ type: 'float32', data, dims: [2, 3] }, { axes: [-1] });
  assert.deepEqual([rows.dims, Array.from(rows.data)], [[2, 1], [7, 9]]);
});

test('BigInt dims (as ONNX protobuf readers give int64 dims) work like number dims', () => {
  const data = new Float32Array([1, 9, 3, 4, 2, 8]);
  const expected = runNode('ArgMax', [{ type: 'float32', data, dims: [2, 3] }], { axis: 1 }, 13)[0];
  for (const dims of [[2n, 3n], [2n, 3], new BigInt64Array([2n, 3n])]) {
    const [out] = runNode('ArgMax', [{ type: 'float32', data, dims }], { axis: 1 }, 13);
    assertTensorEqual(out, expected);
    assert.deepEqual(new Tensor('float32', data, dims).dims, [2, 3]);
  }
  assert.throws(() => runNode('ArgMax', [{ type: 'float32', data, dims: [2n, -3n] }], {}, 13), /ArgMax version 13: .*dims\[1\] = -3/);
  assert.throws(() => runNode('ArgMax', [{ type: 'float32', data, dims: [3n, 3n] }], {}, 13), /ArgMax version 13: .*6 elements/);
});
