// The per-call shortcuts of js/engine.js and the wasm edge, end to end: heap views kept between
// calls (re-made after memory grows, inside a call or outside), and the core's reuse of the last
// plan when a request repeats word for word. Every answer against the plain reference.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode, wasmTensor } from '../../js/index.mjs';
import { STAGING_BYTES } from '../../js/session.js';
import { currentModule } from '../../js/module.js';
import { WINDOW_ABOVE_BYTES, assertTensorEqual, checkAgainstReference, prng, recordCalls, tensor } from './helpers.mjs';
import { referenceNode } from './reference.mjs';
import { randomTensor } from './values.mjs';

const small = (rng, type = 'float32', dims = [2, 5]) => randomTensor(rng, type, dims);

// A wasmTensor holding x's values (read in place, as a model's resident input).
function residentCopy(x) {
  const t = wasmTensor(x.type, x.dims);
  t.data.set(x.data);
  return t;
}

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

// A repeat of the plan the core last started only resets its running state (bindings/embind.cc:
// prepare, ox::Execution::restart); these sequences repeat each kind of state back to back: values
// and indices (ReduceMax rows, prefix axes), Hardmax's one-hot written by the core (rows of 64
// bytes or less) or built here from its winners, a windowed state (refused: started again), the
// input copied in, resident, or written into one `out`.
test('repeated requests: the same words with new data, interleaved with other calls and errors', async () => {
  await init();
  const rng = prng(42);
  const shapes = [
    ['ArgMax', 'float32', [1, 10], { axis: -1 }, 13],
    ['ArgMin', 'int8', [3, 4], { axis: 0, select_last_index: 1 }, 13],
    ['ReduceMax', 'bfloat16', [2, 3, 4], { keepdims: 0, axes: [0, 2] }, 13],
    ['ReduceMax', 'float32', [3, 5], { axes: [1] }, 13],
    ['Hardmax', 'float64', [4, 6], {}, 11],
    ['Hardmax', 'float32', [3, 100], {}, 13],
    ['ArgMax', 'uint8', [2, 2500000], { axis: 0, select_last_index: 1 }, 13], // windowed: 5 MB of state
  ];
  const errors = [
    () => runNode('ArgMax', [small(rng)], { axis: 7 }, 13),
    () => runNode('ArgMax', [small(rng, 'bool')], { axis: 0 }, 13),
    () => runNode('ArgMax', [{ type: 'float32', data: new Float32Array(3), dims: [2, 2] }], {}, 13),
  ];
  let last = 0;
  for (let i = 0; i < 900; i += 1) {
    // Mostly the last shape again; the windowed one seldom (its input is 5 MB).
    let pick = rng.chance(0.6) ? last : rng.int(shapes.length);
    if (pick === shapes.length - 1 && rng.chance(0.8)) pick = 0;
    last = pick;
    const [op, type, dims, attrs, opset] = shapes[pick];
    const x = randomTensor(rng, type, dims);
    const where = `call ${i} ${op} ${type} [${dims}]`;
    const how = rng.int(3);
    if (how === 0) {
      checkAgainstReference(runNode, op, [x], attrs, opset, where);
    } else {
      const expected = referenceNode(op, [x], attrs, opset);
      assert.ok(expected.ok, where);
      const input = how === 1 ? x : residentCopy(x);
      const out = new expected.output.data.constructor(expected.output.data.length);
      try {
        assertTensorEqual(runNode(op, [input], attrs, opset, { out })[0], expected.output, `${where} (${how === 1 ? 'out' : 'resident, out'})`);
      } finally {
        if (how === 2) input.dispose();
      }
    }
    if (rng.chance(0.1)) assert.throws(errors[rng.int(errors.length)], Error);
  }
  // The same request words, the same data: the same answer, every time.
  const x = tensor('float32', [3, 1, 4, 1, 5, 9, 2, 6, 5, 3], [1, 10]);
  for (let i = 0; i < 5; i += 1) assert.deepEqual(Array.from(runNode('ArgMax', [x], { axis: -1 }, 13)[0].data), [5n]);
  // An error right after a cached request, then the cached request again.
  assert.throws(() => runNode('ArgMax', [x], { axis: -1, keepdims: 2 }, 13), /keepdims/);
  assert.deepEqual(Array.from(runNode('ArgMax', [x], { axis: -1 }, 13)[0].data), [5n]);
});

// The wasm edge's order checks (bindings/embind.cc: every function returns 0, or 1 with
// lastError() set). js/engine.js never calls out of order, so only direct calls show them: a
// feed or an output read with no prepared call, and a gathered feed once the input is all fed.
function assertRefused(M, status, where) {
  assert.equal(status, 1, where);
  assert.match(M._lastError(), /out of order \(internal error\)/, where);
}

test('the wasm edge refuses a feed or read outside a call, and a gathered feed past the input', async () => {
  await init();
  const M = currentModule();
  const x = tensor('float32', [3, 1, 4, 1, 5, 9], [2, 3]);
  runNode('ArgMax', [x], { axis: 1 }, 13); // finished: nothing prepared now
  assertRefused(M, M._feed(0, 0), 'an empty feed after the call finished');
  assertRefused(M, M._writeOutput(0, 0, 0), 'an empty read after the call finished');
  // ReduceMax over axes [0, 2] of [2, n, 2], its state windowed: fed gathered from 2 blocks.
  // Just before the call finishes, every window was fed: one more is refused.
  const n = Math.ceil(WINDOW_ABOVE_BYTES / 4) + 12345; // float32 states past the threshold: windowed
  const data = new Float32Array(4 * n).map((_, i) => (i * 7919) % 1000);
  const axes = { type: 'int64', data: BigInt64Array.from([0n, 2n]), dims: [2] };
  const scratch = M._malloc(1 << 20); // a window's worth, should the check let one through
  const finish = M._finish;
  let extra;
  M._finish = () => {
    if (extra === undefined) extra = [M._feedGathered(scratch), M._lastError()];
    return finish.call(M);
  };
  try {
    checkAgainstReference(runNode, 'ReduceMax', [{ type: 'float32', data, dims: [2, n, 2] }, axes], {}, 18, 'gathered');
  } finally {
    M._finish = finish;
    M._free(scratch);
  }
  assert.equal(M.HEAPF64[M._responseAddress() / 8 + M.GATHER_WORD], 2, 'the call was fed gathered');
  assert.deepEqual([extra[0], /out of order \(internal error\)/.test(extra[1])], [1, true], 'a gathered feed past the input');
  checkAgainstReference(runNode, 'ArgMax', [x], { axis: 1 }, 13, 'the module works afterwards');
});

// An output larger than the staging buffer in bytes, though not in elements (int64 indices, 8
// bytes each), is read in parts: nothing of it lands past the buffer. The bytes just past it are
// still the engine's (its block has up to a page of slack, 8 bytes at least with 8-byte malloc
// alignment), so a sentinel there is safe to write and shows any overrun.
test('an int64 output over the staging buffer in bytes writes nothing past it', async () => {
  await init();
  const M = currentModule();
  const fed = recordCalls(M, '_feed', () =>
    runNode('ArgMax', [{ type: 'float32', data: new Float32Array(2 * STAGING_BYTES / 4), dims: [2, STAGING_BYTES / 4] }], { axis: 1 }, 13));
  assert.ok(fed.length > 0, 'the input was streamed through the staging buffer');
  const end = fed[0][0] + STAGING_BYTES;
  const count = STAGING_BYTES / 8 + 64; // 512 bytes over, in far fewer elements than bytes
  const data = Int8Array.from({ length: 2 * count }, (_, i) => (i * 37) % 11);
  M.HEAPU8.fill(0x5a, end, end + 8);
  checkAgainstReference(runNode, 'ArgMax', [{ type: 'int8', data, dims: [count, 2] }], { axis: 1, keepdims: 0 }, 13, 'int8 [count, 2]');
  assert.deepEqual(Array.from(M.HEAPU8.subarray(end, end + 8)), new Array(8).fill(0x5a), 'the bytes past the staging buffer');
});
