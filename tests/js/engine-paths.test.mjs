// The call paths of js/engine.js (feeding: js/feed.js; outputs: js/outputs.js), each against a plain reference written here: inputs that fit
// in the staging buffer (one crossing) or are streamed through it, inputs already in wasm memory,
// outputs read in one piece or in parts, and Hardmax's one-hot built from the winning indices
// (exact 1.0 bits for float16 and bfloat16).
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, argMax, argMin, hardmax, reduceMax, Tensor } from '../../js/index.mjs';
import { STAGING_BYTES, session } from '../../js/session.js';
import { currentModule } from '../../js/module.js';
import { recordCalls } from './helpers.mjs';

const STAGING_FLOATS = STAGING_BYTES / 4;

function values(n, seed) {
  const x = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i += 1) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = (s % 1000) - 500; // ties are common: the first index must win
  }
  return x;
}

// Index of the first maximum (or minimum) of each run along `axis` of [outer, reduce, inner].
function argAlong(x, outer, reduce, inner, better) {
  const out = [];
  for (let o = 0; o < outer; o += 1)
    for (let i = 0; i < inner; i += 1) {
      let best = 0;
      for (let r = 1; r < reduce; r += 1) if (better(x[(o * reduce + r) * inner + i], x[(o * reduce + best) * inner + i])) best = r;
      out.push(best);
    }
  return out;
}

test('ArgMax/ArgMin: staged and streamed inputs, outputs in one piece and in parts', async () => {
  await init();
  // [rows, cols] with the reduced axis last or first; sizes below and above the staging buffer,
  // and outputs above what one staging buffer holds (32768 int64).
  for (const [rows, cols] of [[3, 7], [64, 1000], [70000, 3], [3, 70000], [40000, 9]]) {
    const x = values(rows * cols, rows + cols);
    const t = new Tensor('float32', x, [rows, cols]);
    const gt = (a, b) => a > b;
    const lt = (a, b) => a < b;
    assert.deepEqual(Array.from(argMax(t, { axis: 1 }).data, Number), argAlong(x, rows, cols, 1, gt), `argMax [${rows},${cols}] axis 1`);
    assert.deepEqual(Array.from(argMin(t, { axis: 0 }).data, Number), argAlong(x, 1, rows, cols, lt), `argMin [${rows},${cols}] axis 0`);
  }
});

// Half a page away from the page offsets large typed arrays start at (js/session.js: memmove into a
// destination 8-24 bytes past its source modulo 4 KiB ran over 10x slower), on a cache line, plus
// the chunk's placement: 0, 16, 32 or 48 bytes for a source at offset 0 (js/chunk-placement.js).
test('streamed chunks are fed from a staging buffer that starts half a page past a page boundary', async () => {
  await init();
  const M = currentModule();
  const fed = recordCalls(M, '_feed', () =>
    argMax(new Tensor('float32', values(3 * STAGING_FLOATS, 4), [(3 * STAGING_FLOATS) / 1024, 1024]), { axis: 0 }));
  assert.equal(fed.length, 3);
  assert.equal(session().staging % 4096, 2048);
  for (const [at] of fed) assert.ok([0, 16, 32, 48].includes(at - session().staging), `staged at ${at}`);
  assert.equal(M.CACHE_LINE_BYTES, 64);
});

// Outputs larger than the staging buffer start uninitialized where the runtime allows it (Node's
// Buffer.allocUnsafeSlow) and are overwritten whole; every path must still hand back an array of
// the exact class that owns its whole buffer, as `new Class(n)` would (a caller may transfer or
// wrap out.data.buffer), holding only this call's values.
test('every output array owns its whole buffer, on every output path', async () => {
  await init();
  const owns = (data, Class, where) => {
    assert.equal(data.constructor, Class, `${where}: class`);
    assert.equal(data.byteOffset, 0, `${where}: byteOffset`);
    assert.equal(data.buffer.byteLength, data.byteLength, `${where}: buffer length`);
  };
  for (const [rows, cols] of [[4, 3], [20, 3], [70000, 3], [3, 70000], [2, 300000]]) {
    const x = values(rows * cols, rows * cols);
    const t = new Tensor('float32', x, [rows, cols]);
    for (const axis of [0, 1]) {
      const where = `[${rows},${cols}] axis ${axis}`;
      const arg = argMax(t, { axis });
      owns(arg.data, BigInt64Array, `argMax ${where}`);
      const reduce = axis === 1 ? [rows, cols, 1] : [1, rows, cols];
      assert.deepEqual(Array.from(arg.data, Number), argAlong(x, ...reduce, (a, b) => a > b), `argMax ${where}`);
      const max = reduceMax(t, { axes: [axis], keepdims: 0 });
      owns(max.data, Float32Array, `reduceMax ${where}`);
      const expected = argAlong(x, ...reduce, (a, b) => a > b).map((j, k) => (axis === 1 ? x[k * cols + j] : x[j * cols + k]));
      assert.deepEqual(Array.from(max.data), expected, `reduceMax ${where}`);
      owns(hardmax(t, { axis }).data, Float32Array, `hardmax ${where}`);
    }
  }
});

test('an input view at an offset reads its own elements only', async () => {
  await init();
  for (const n of [10, STAGING_FLOATS + 5]) {
    const backing = values(n + 8, n);
    const view = backing.subarray(3, 3 + n);
    const copy = Float32Array.from(view);
    const a = reduceMax(new Tensor('float32', view, [n]), {}).data[0];
    assert.equal(a, reduceMax(new Tensor('float32', copy, [n]), {}).data[0]);
    assert.equal(a, Math.max(...copy));
  }
});

test('an input already in wasm memory gives the same result as a copy', async () => {
  await init();
  const M = currentModule();
  for (const [rows, cols] of [[2, 5], [300, 1000]]) {
    const n = rows * cols;
    const x = values(n, 7 + n);
    const at = M._malloc(n * 4);
    try {
      const resident = new Float32Array(M.HEAPU8.buffer, at, n);
      resident.set(x);
      const got = argMax(new Tensor('float32', resident, [rows, cols]), { axis: -1 });
      assert.deepEqual(Array.from(got.data, Number), argAlong(x, rows, cols, 1, (a, b) => a > b));
      assert.equal(got.data.buffer === M.HEAPU8.buffer, false, 'the output is not a view of the heap');
    } finally {
      M._free(at);
    }
  }
});

// One-hot of the first maximum along `axis`, with `one` as the 1.
function oneHot(x, dims, axis, one, key = (v) => v) {
  const outer = dims.slice(0, axis).reduce((a, b) => a * b, 1);
  const reduce = dims[axis];
  const inner = dims.slice(axis + 1).reduce((a, b) => a * b, 1);
  const out = new Array(x.length).fill(0);
  const keys = Array.from(x, key);
  argAlong(keys, outer, reduce, inner, (a, b) => a > b).forEach((r, k) => {
    const o = Math.floor(k / inner), i = k % inner;
    out[(o * reduce + r) * inner + i] = one;
  });
  return out;
}

// float16 / bfloat16 bits of small integers, exact: sign, exponent, mantissa by hand.
function halfBits(v, mantissaBits, bias) {
  if (v === 0) return 0;
  const sign = v < 0 ? 0x8000 : 0;
  let m = Math.abs(v), e = 0;
  while (m >= 2) (m /= 2), (e += 1);
  return sign | ((e + bias) << mantissaBits) | Math.round((m - 1) * 2 ** mantissaBits);
}
const f16 = (v) => halfBits(v, 10, 15);
const bf16 = (v) => halfBits(v, 7, 127); // rounds (500 needs 9 bits): compare the bits, not x
// Orders sign-magnitude half bits as their numbers (no NaN here).
const halfKey = (b) => (b & 0x8000 ? -(b & 0x7fff) : b & 0x7fff);

test('Hardmax: exact one-hot in every float type, small and large, last and middle axis', async () => {
  await init();
  for (const dims of [[2, 5], [4, 3, 6], [300, 300], [2, 70000], [3, 40000, 2]]) {
    const n = dims.reduce((a, b) => a * b, 1);
    const x = values(n, n + dims.length);
    for (const axis of [dims.length - 1, 1]) {
      const f32 = hardmax(new Tensor('float32', x, dims), { axis });
      assert.ok(f32.data instanceof Float32Array);
      assert.deepEqual(Array.from(f32.data), oneHot(x, dims, axis, 1), `float32 ${dims} axis ${axis}`);
      const f64 = hardmax(new Tensor('float64', Float64Array.from(x), dims), { axis });
      assert.ok(f64.data instanceof Float64Array);
      assert.deepEqual(Array.from(f64.data), oneHot(x, dims, axis, 1), `float64 ${dims} axis ${axis}`);
      const h = Uint16Array.from(x, f16);
      const out16 = hardmax(new Tensor('float16', h, dims), { axis });
      assert.ok(out16.data instanceof Uint16Array);
      assert.deepEqual(Array.from(out16.data), oneHot(h, dims, axis, 0x3c00, halfKey), `float16 ${dims} axis ${axis}`);
      const b = Uint16Array.from(x, bf16);
      const outB = hardmax(new Tensor('bfloat16', b, dims), { axis });
      assert.deepEqual(Array.from(outB.data), oneHot(b, dims, axis, 0x3f80, halfKey), `bfloat16 ${dims} axis ${axis}`);
    }
  }
});

test('Hardmax keeps a Float16Array input a Float16Array, with exact 1.0', { skip: typeof globalThis.Float16Array !== 'function' && 'no Float16Array in this runtime' }, async () => {
  await init();
  for (const dims of [[2, 5], [2, 70000]]) {
    const n = dims[0] * dims[1];
    const x = values(n, n);
    const out = hardmax(new Tensor('float16', globalThis.Float16Array.from(x), dims), { axis: -1 });
    assert.ok(out.data instanceof globalThis.Float16Array);
    assert.deepEqual(Array.from(new Uint16Array(out.data.buffer, out.data.byteOffset, out.data.length)), oneHot(x, dims, 1, 0x3c00));
  }
});

test('Hardmax-11 coerces to 2-D around axis', async () => {
  await init();
  const dims = [3, 4, 5];
  const x = values(60, 60);
  const out = hardmax(new Tensor('float32', x, dims), { axis: 1 }, { opset: 11 });
  assert.deepEqual(out.dims, dims);
  assert.deepEqual(Array.from(out.data), oneHot(x, [3, 20], 1, 1));
});
