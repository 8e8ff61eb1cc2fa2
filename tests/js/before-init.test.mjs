// Calls before init() resolved throw a clear Error. node --test runs each file in its own process,
// so the package here is fresh: nothing has loaded the wasm module yet.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import test from 'node:test';
import * as ox from '../../js/index.mjs';
import { tensor } from './helpers.mjs';

const x = tensor('float32', [1, 3, 2], [1, 3]);
const beforeInit = (name) => (e) => e instanceof Error && /before init\(\)/.test(e.message) && e.message.includes(name);

test('operators called before init() throw an Error that says so', () => {
  assert.throws(() => ox.argMax(x), beforeInit('ArgMax'));
  assert.throws(() => ox.argMin(x, {}, { opset: 11 }), beforeInit('ArgMin'));
  assert.throws(() => ox.hardmax(x), beforeInit('Hardmax'));
  assert.throws(() => ox.reduceMax(x), beforeInit('ReduceMax'));
  assert.throws(() => ox.reduceMax(x, { axes: [1] }), beforeInit('ReduceMax'));
  assert.throws(() => ox.runNode('ReduceMax', [x], {}, 13), beforeInit('ReduceMax'));
  assert.throws(() => ox.runNode('NoSuchOp', [x]), beforeInit('NoSuchOp'));
  // Bad options or axes as well: not having called init() is the problem named, with the operator.
  assert.throws(() => ox.argMax(x, {}, { opsett: 11 }), (e) => /^onnx-extrema: ArgMax \(newest version\) was called before init\(\) resolved/.test(e.message));
  assert.throws(() => ox.argMin(x, {}, 5), (e) => /^onnx-extrema: ArgMin \(newest version\) was called before init\(\) resolved/.test(e.message));
  assert.throws(() => ox.reduceMax(x, { axes: [1.5] }, { opset: 18 }), (e) => /^onnx-extrema: ReduceMax \(opset 18\) was called before init\(\) resolved/.test(e.message));
  assert.throws(() => ox.runNode('ArgMax', [x], {}, 11, { opset: 11 }), (e) => /^onnx-extrema: ArgMax \(opset 11\) was called before init\(\) resolved/.test(e.message));
  assert.throws(() => ox.wasmTensor('float32', [2, 3]), beforeInit('wasmTensor'));
  // The float16 helpers and the Tensor class need no wasm.
  assert.equal(ox.toFloat16Bits(1), 0x3c00);
  assert.deepEqual(new ox.Tensor('int8', [1, 2]).dims, [2]);
});

test('the CommonJS entry shares the same state', () => {
  const cjs = createRequire(import.meta.url)('../../js/index.cjs');
  assert.throws(() => cjs.argMax(x), (e) => e instanceof Error && /before init\(\)/.test(e.message));
});

test('a failed init() rejects with a clear Error; a later init() loads', async () => {
  await assert.rejects(ox.init({ wasmBinary: new TextEncoder().encode('<!doctype html><html>not wasm</html>') }), (e) => e instanceof Error && /not a WebAssembly module/.test(e.message) && /doctype/.test(e.message));
  await assert.rejects(ox.init({ wasmBinary: 'bytes' }), (e) => e instanceof Error && /wasmBinary/.test(e.message));
  await assert.rejects(ox.init({ wasmUrl: new URL('./no-such.wasm', import.meta.url).href }), (e) => e instanceof Error && /no-such\.wasm/.test(e.message));
  assert.throws(() => ox.argMax(x), beforeInit('ArgMax'));
  const first = ox.init();
  const second = ox.init();
  await Promise.all([first, second]);
  await ox.init(); // idempotent
  assert.deepEqual(Array.from(ox.argMax(x, { axis: 1 }).data), [1n]);
  const cjs = createRequire(import.meta.url)('../../js/index.cjs');
  assert.deepEqual(Array.from(cjs.reduceMax(x).data), [3]);
});
