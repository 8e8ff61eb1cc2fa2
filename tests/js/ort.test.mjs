// ort.Tensor interop with onnxruntime-common's Tensor (what onnxruntime-web and -node build on):
// its instances go in as inputs for every type both sides know, and outputs go back through
// `new ort.Tensor(out.type, out.data, out.dims)`. Expected values come from the plain loops below.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import * as ort from 'onnxruntime-common';
import { argMax, argMin, hardmax, init, reduceMax } from '../../js/index.mjs';
import { halfValue } from '../package/checks.mjs';

const DIMS = [2, 5, 3];
const AXIS = 1; // the middle axis: outer 2, reduced 5, inner 3

// Types onnxruntime-common and this package share (ort has no bfloat16), with what each operator takes.
const TYPES = {
  float32: { make: (v) => new Float32Array(v), ops: 'arh' },
  float64: { make: (v) => new Float64Array(v), ops: 'arh' },
  float16: { make: (v) => Uint16Array.from(v, halfBits), value: halfValue, ops: 'arh' },
  int8: { make: (v) => Int8Array.from(v, Math.floor), ops: 'ar' },
  uint8: { make: (v) => Uint8Array.from(v, (x) => Math.floor(x) + 8), ops: 'ar' },
  int16: { make: (v) => Int16Array.from(v, Math.floor), ops: 'a' },
  uint16: { make: (v) => Uint16Array.from(v, (x) => Math.floor(x) + 8), ops: 'a' },
  int32: { make: (v) => Int32Array.from(v, Math.floor), ops: 'ar' },
  uint32: { make: (v) => Uint32Array.from(v, (x) => Math.floor(x) + 8), ops: 'ar' },
  int64: { make: (v) => BigInt64Array.from(v, (x) => BigInt(Math.floor(x))), ops: 'ar' },
  uint64: { make: (v) => BigUint64Array.from(v, (x) => BigInt(Math.floor(x) + 8)), ops: 'ar' },
  bool: { make: (v) => Uint8Array.from(v, (x) => (x > 2 ? 1 : 0)), ops: 'r' },
};

// float16 bits of k + 0.5 for small integers k (exact in float16).
function halfBits(v) {
  if (Number.isNaN(v)) return 0x7e00;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  return (v < 0 ? 0x8000 : 0) | ((e + 15) << 10) | ((a / 2 ** e - 1) * 1024);
}

// Values with many ties (k + 0.5, k in -4..4) and, for the float types, a NaN.
const BASE = Array.from({ length: 30 }, (_, i) => ((i * 7) % 9) - 4 + 0.5);
const WITH_NAN = BASE.map((v, i) => (i === 16 ? NaN : v));

// Index along AXIS of the winner for each (outer, inner): NaN wins, then `better`; first on ties.
function winners(values, better) {
  const [outer, n, inner] = DIMS;
  const out = [];
  for (let o = 0; o < outer; o += 1)
    for (let i = 0; i < inner; i += 1) {
      let best = 0;
      const at = (k) => values[(o * n + k) * inner + i];
      for (let k = 1; k < n; k += 1) if (!Number.isNaN(at(best)) && (Number.isNaN(at(k)) || better(at(k), at(best)))) best = k;
      out.push(best);
    }
  return out;
}

function expectOrt(out, type, dims, data) {
  const back = new ort.Tensor(out.type, out.data, out.dims);
  assert.equal(back.type, type);
  assert.deepEqual(back.dims, dims);
  assert.equal(back.data.constructor, data.constructor);
  assert.deepEqual(Array.from(back.data), Array.from(data));
  assert.equal(back.size, data.length);
  return back;
}

before(() => init());

for (const [type, { make, value = Number, ops }] of Object.entries(TYPES)) {
  test(`ort.Tensor ${type} in, ort.Tensor out`, () => {
    const bits = make(type.startsWith('float') ? WITH_NAN : BASE);
    const x = new ort.Tensor(type, bits, DIMS);
    // Where the runtime has a Float16Array (Node 24+), ort.Tensor turns float16 bits into one; the
    // outputs keep the input's class, so the expected arrays are made in it.
    const data = x.data.constructor === bits.constructor ? bits : new x.data.constructor(Array.from(bits, value));
    const values = Array.from(bits, value);
    const valueOf = data === bits ? value : Number; // of an element of `data`'s class
    const [outer, , inner] = DIMS;
    const picked = (index) => data.constructor.from(index.map((k, j) => data[(Math.floor(j / inner) * DIMS[1] + k) * inner + (j % inner)]));
    const maxIndex = winners(values, (a, b) => a > b);
    if (ops.includes('a')) {
      expectOrt(argMax(x, { axis: AXIS }), 'int64', [outer, 1, inner], BigInt64Array.from(maxIndex, BigInt));
      const minIndex = winners(values, (a, b) => a < b);
      expectOrt(argMin(x, { axis: AXIS, keepdims: 0 }), 'int64', [outer, inner], BigInt64Array.from(minIndex, BigInt));
    }
    if (ops.includes('r')) {
      const back = expectOrt(reduceMax(x, { axes: [AXIS], keepdims: 0 }), type, [outer, inner], picked(maxIndex));
      // An ort.Tensor made from an output goes back in.
      const rest = Array.from(picked(maxIndex), valueOf);
      assert.equal(valueOf(reduceMax(back).data[0]), rest.some(Number.isNaN) ? NaN : Math.max(...rest));
    }
    if (ops.includes('h')) {
      const one = data instanceof Uint16Array ? 0x3c00 : 1;
      const hot = new data.constructor(data.length);
      maxIndex.forEach((k, j) => (hot[(Math.floor(j / inner) * DIMS[1] + k) * inner + (j % inner)] = one));
      expectOrt(hardmax(x, { axis: AXIS }), type, DIMS, hot);
    }
  });
}

test('an ort.Tensor over a view at an offset into a larger buffer', () => {
  const buffer = new Float32Array([9, 9, 9, 1, 7, 3, 9, 9]);
  const x = new ort.Tensor('float32', buffer.subarray(3, 6), [3]);
  expectOrt(argMax(x, { keepdims: 0 }), 'int64', [], new BigInt64Array([1n]));
  expectOrt(reduceMax(x), 'float32', [1], new Float32Array([7]));
});

// Outputs of a WebGPU or WebNN session can stay on the device (preferredOutputLocation); their
// data getter throws, and so does a disposed tensor's. The call names the operator, the version
// and what to do; once getData() has downloaded the data, the same tensor works.
test('an ort.Tensor whose data is on a GPU, or disposed, is an Error that says so; after getData() it works', async () => {
  const logits = new Float32Array([0.5, 3, -1, 3, 2]);
  let disposed = false;
  const onGpu = ort.Tensor.fromGpuBuffer({ size: logits.byteLength }, {
    dataType: 'float32',
    dims: [1, 5],
    download: async () => logits.slice(),
    dispose: () => (disposed = true),
  });
  assert.equal(onGpu.location, 'gpu-buffer');
  const offCpu = /^Error: ArgMax version 13: input 0 is an ort\.Tensor whose data is on 'gpu-buffer', not on the CPU; await its getData\(\) first/;
  assert.throws(() => argMax(onGpu, { axis: -1 }), offCpu);
  assert.throws(() => reduceMax(onGpu, { axes: [1] }, { opset: 18 }), /^Error: ReduceMax version 18: input 0 is an ort\.Tensor whose data is on 'gpu-buffer'/);
  await onGpu.getData();
  assert.equal(onGpu.location, 'cpu');
  expectOrt(argMax(onGpu, { axis: -1 }), 'int64', [1, 1], new BigInt64Array([1n]));

  const released = ort.Tensor.fromGpuBuffer({ size: logits.byteLength }, { dataType: 'float32', dims: [5], dispose: () => (disposed = true) });
  released.dispose();
  assert.equal(disposed, true);
  assert.throws(() => hardmax(released), /^Error: Hardmax version 13: input 0 is an ort\.Tensor that was disposed/);
  const cpu = new ort.Tensor('float32', logits, [5]);
  cpu.dispose();
  assert.throws(() => argMin(cpu), /^Error: ArgMin version 13: input 0 is an ort\.Tensor that was disposed/);

  // Any other getter's exception is the caller's own and comes through unchanged.
  const own = new Error('my getter');
  const throwing = { type: 'float32', dims: [1], location: 'gpu-buffer-ish', get data() { throw own; } };
  assert.throws(() => argMax(throwing), (error) => error === own);
  expectOrt(argMax(new ort.Tensor('float32', logits, [5])), 'int64', [1], new BigInt64Array([1n]));
});
