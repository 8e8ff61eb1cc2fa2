// Windowed state (src/exec/execution.h): a call whose outputs would need more than 4 MiB of
// working state (ArgMax over axis 0 of [2, N]) keeps the state of a window of outputs only, and
// js/engine.js reads the outputs each chunk or tile made final before feeding the next. Shapes
// here are just large enough to take that path (checked on the response word the core sets),
// for every dtype and layout the window has: column tiles, rows, row-major slices, and the
// gathered windows of a multi-axis ReduceMax (a kept or reduced leading axis); results against the
// plain reference, and the wasm heap does not grow.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';
import { WINDOW_ABOVE_BYTES, checkAgainstReference, prng } from './helpers.mjs';
import { TYPES } from './reference.mjs';
import { POOLS, fillFromPool } from './values.mjs';

const ARG_TYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
const REDUCE_TYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int32', 'uint32', 'int64', 'uint64', 'bool'];
const HARDMAX_TYPES = ['float32', 'float64', 'float16', 'bfloat16'];

// Outputs enough that a state per output (the value, and an int32 index but for ReduceMax) is
// over the window threshold, plus an odd remainder so no window edge falls on a round number.
function windowedOutputs(type, tracksIndex) {
  const stateBytes = TYPES[type].array.BYTES_PER_ELEMENT + (tracksIndex ? 4 : 0);
  return Math.ceil(WINDOW_ABOVE_BYTES / stateBytes) + 12345;
}

// Values from the type's pool (ties are common; NaNs included for floating types).
function fill(type, count, rng) {
  const data = new TYPES[type].array(count);
  fillFromPool(data, POOLS[type], rng);
  return data;
}

function windowWord(M) {
  return M.HEAPF64[M._responseAddress() / 8 + M.WINDOW_WORD];
}

// One call against the reference, asserting it took the windowed path and left the heap as it was.
function checkWindowed(M, op, inputs, attrs, opset, where) {
  const heapBefore = M.HEAPU8.length;
  checkAgainstReference(runNode, op, inputs, attrs, opset, where);
  assert.equal(windowWord(M), 1, `${where}: the state was windowed`);
  assert.equal(M.HEAPU8.length, heapBefore, `${where}: the wasm heap did not grow`);
}

const axesInput = (...axes) => ({ type: 'int64', data: BigInt64Array.from(axes.map(BigInt)), dims: [axes.length] });

test('windowed state: ArgMax/ArgMin over axis 0 of [2, N] (column tiles) and axis 1 of [N, 2] (rows), every dtype', async () => {
  await init();
  const M = currentModule();
  const rng = prng(41);
  for (const type of ARG_TYPES) {
    const n = windowedOutputs(type, true);
    const data = fill(type, 2 * n, rng);
    checkWindowed(M, 'ArgMax', [{ type, data, dims: [2, n] }], { axis: 0, keepdims: 0, select_last_index: rng.int(2) }, 13, `ArgMax ${type} [2, ${n}]`);
    checkWindowed(M, 'ArgMin', [{ type, data, dims: [n, 2] }], { axis: 1, select_last_index: rng.int(2) }, 13, `ArgMin ${type} [${n}, 2]`);
  }
});

test('windowed state: ReduceMax over a middle axis (tiles) and over axes [1, 3] (a kept leading prefix axis, gathered), every dtype', async () => {
  await init();
  const M = currentModule();
  const rng = prng(42);
  for (const type of REDUCE_TYPES) {
    const n = windowedOutputs(type, false);
    checkWindowed(M, 'ReduceMax', [{ type, data: fill(type, 2 * n, rng), dims: [1, 2, n] }, axesInput(1)], { keepdims: rng.int(2) }, 20, `ReduceMax ${type} axes [1]`);
    // The multi-axis reference is slow on the millions of outputs 1- and 2-byte types need: the
    // prefix layout is checked on the wider types (its code is the same for every dtype).
    if (TYPES[type].array.BYTES_PER_ELEMENT < 4) continue;
    const third = Math.ceil(n / 3); // three indices of the kept leading axis: three groups, each gathered from 2 blocks
    const dims = [3, 2, third, 2];
    checkWindowed(M, 'ReduceMax', [{ type, data: fill(type, 12 * third, rng), dims }, axesInput(1, 3)], { keepdims: 0 }, 20, `ReduceMax ${type} axes [1, 3]`);
  }
});

test('windowed state: multi-axis ReduceMax fed gathered (reduced leading axis: whole slices, columns; resident input)', async () => {
  await init();
  const M = currentModule();
  const rng = prng(45);
  const gatherBlocks = () => M.HEAPF64[M._responseAddress() / 8 + M.GATHER_WORD];
  for (const type of REDUCE_TYPES.filter((t) => TYPES[t].array.BYTES_PER_ELEMENT >= 4)) {
    const n = windowedOutputs(type, false);
    // [2, n, 2] over [0, 2]: both blocks' whole slices (rows of 2) of a window side by side.
    checkWindowed(M, 'ReduceMax', [{ type, data: fill(type, 4 * n, rng), dims: [2, n, 2] }, axesInput(0, 2)], { keepdims: rng.int(2) }, 18, `ReduceMax ${type} [2, ${n}, 2] axes [0, 2]`);
    assert.equal(gatherBlocks(), 2, `${type} [2, n, 2]: gathered from 2 blocks`);
    // [2, 3, 2, m] over [0, 2]: an outer slice (2m) is more than a staging buffer holds from two
    // blocks, so a window is columns of every reduced row of both.
    const m = Math.ceil(n / 3);
    checkWindowed(M, 'ReduceMax', [{ type, data: fill(type, 12 * m, rng), dims: [2, 3, 2, m] }, axesInput(0, 2)], { keepdims: 0 }, 20, `ReduceMax ${type} [2, 3, 2, ${m}] axes [0, 2]`);
    assert.equal(gatherBlocks(), 2, `${type} [2, 3, 2, m]: gathered from 2 blocks`);
  }
  // Resident input, gathered from where it is.
  const n = windowedOutputs('float32', false);
  const at = M._malloc(4 * n * 4);
  try {
    const resident = new Float32Array(M.HEAPU8.buffer, at, 4 * n);
    resident.set(fill('float32', 4 * n, rng));
    const copy = Float32Array.from(resident);
    const dims = [2, n, 2];
    const got = runNode('ReduceMax', [{ type: 'float32', data: new Float32Array(M.HEAPU8.buffer, at, 4 * n), dims }, axesInput(0, 2)], {}, 18)[0];
    assert.equal(gatherBlocks(), 2, 'resident: gathered');
    const want = runNode('ReduceMax', [{ type: 'float32', data: copy, dims }, axesInput(0, 2)], {}, 18)[0];
    assert.deepEqual(got.data, want.data, 'resident [2, n, 2] axes [0, 2]');
  } finally {
    M._free(at);
  }
});

test('windowed state: Hardmax along axis 0 (tiles) and the last axis (rows), every dtype', async () => {
  await init();
  const M = currentModule();
  const rng = prng(43);
  for (const type of HARDMAX_TYPES) {
    const n = windowedOutputs(type, true);
    const data = fill(type, 2 * n, rng);
    checkWindowed(M, 'Hardmax', [{ type, data, dims: [2, n] }], { axis: 0 }, 13, `Hardmax ${type} [2, ${n}] axis 0`);
    checkWindowed(M, 'Hardmax', [{ type, data, dims: [n, 2] }], { axis: -1 }, 13, `Hardmax ${type} [${n}, 2] axis -1`);
  }
});

test('windowed state: row-major slices too tall for tiles, and input already in wasm memory', async () => {
  await init();
  const M = currentModule();
  const rng = prng(44);
  // 33 rows of 180,001 columns: tile rows would be too short to copy well, so slices stream
  // row-major with a window of two whole slices (of three).
  const dims = [3, 33, 180001];
  const count = dims[0] * dims[1] * dims[2];
  checkWindowed(M, 'ArgMax', [{ type: 'float32', data: fill('float32', count, rng), dims }], { axis: 1, select_last_index: 1 }, 13, 'ArgMax float32 [3, 33, 180001]');

  // Resident input: fed from where it is, in chunks, outputs read in between.
  const n = windowedOutputs('float32', true);
  const bytes = 2 * n * 4;
  const at = M._malloc(bytes);
  try {
    const resident = new Float32Array(M.HEAPU8.buffer, at, 2 * n);
    resident.set(fill('float32', 2 * n, rng));
    const copy = Float32Array.from(resident);
    for (const [opName, attrs, shape] of [['ArgMax', { axis: 1 }, [n, 2]], ['ArgMin', { axis: 0 }, [2, n]], ['Hardmax', { axis: 0 }, [2, n]]]) {
      const got = runNode(opName, [{ type: 'float32', data: new Float32Array(M.HEAPU8.buffer, at, 2 * n), dims: shape }], attrs, 13)[0];
      assert.equal(windowWord(M), 1, `${opName} resident: windowed`);
      const want = runNode(opName, [{ type: 'float32', data: copy, dims: shape }], attrs, 13)[0];
      assert.deepEqual(got.dims, want.dims);
      assert.deepEqual(got.data, want.data, `${opName} resident ${JSON.stringify(shape)}`);
    }
  } finally {
    M._free(at);
  }
});
