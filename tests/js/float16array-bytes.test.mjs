// The engine's byte paths: an input whose class the heap has no view of (a Float16Array) is
// copied into the staging buffer as bytes (row-major chunks, column tiles, gathered windows), and
// an output of that class is copied out as bytes. Node 20 has no Float16Array, so without a
// stand-in these paths run only in the Chromium test. Here one is installed before the package
// loads (js/dtypes.js reads the global once): an Int16Array subclass, so that it is no Uint16Array
// (which is read through a HEAPU16 view) and its memory holds float16 bits. Every result must
// have the bits a plain Uint16Array input gives (checked against the reference on the smaller
// shapes). Not Hardmax: it writes the number 1 into a Float16Array, which the stand-in would
// store as the bits 0x0001.
import assert from 'node:assert/strict';
import test from 'node:test';

class StandInFloat16Array extends Int16Array {}
globalThis.Float16Array = StandInFloat16Array;
const { init, runNode } = await import('../../js/index.mjs');
const { currentModule } = await import('../../js/module.js');
const { session } = await import('../../js/session.js');
const { WINDOW_ABOVE_BYTES, checkAgainstReference, prng, recordCalls } = await import('./helpers.mjs');
const { POOLS, fillFromPool } = await import('./values.mjs');

const axesInput = (...axes) => ({ type: 'int64', data: BigInt64Array.from(axes.map(BigInt)), dims: [axes.length] });

// float16 bits from the pool (NaN payloads, zeros of both signs, infinities, ties).
function bits(count, rng) {
  const out = new Uint16Array(count);
  fillFromPool(out, POOLS.float16, rng);
  return out;
}

const bitsOf = (data) => (data instanceof StandInFloat16Array ? new Uint16Array(data.buffer, data.byteOffset, data.length) : data);

// The call on the stand-in against the same call on a plain Uint16Array over the same memory:
// same dims, same output class as the input for float16 outputs, same bits.
function checkStandIn(op, plain, dims, rest, attrs, opset, where, reference = true) {
  const standIn = new StandInFloat16Array(plain.buffer, plain.byteOffset, plain.length);
  const got = runNode(op, [{ type: 'float16', data: standIn, dims }, ...rest], attrs, opset)[0];
  const want = runNode(op, [{ type: 'float16', data: plain, dims }, ...rest], attrs, opset)[0];
  assert.deepEqual(got.dims, want.dims, `${where}: dims`);
  if (got.type === 'float16') assert.ok(got.data instanceof StandInFloat16Array, `${where}: a Float16Array input gives a Float16Array`);
  assert.deepEqual(bitsOf(got.data), want.data, `${where}: the bits of a Uint16Array input`);
  if (reference) checkAgainstReference(runNode, op, [{ type: 'float16', data: plain, dims }, ...rest], attrs, opset, where);
}

test('a Float16Array input streamed as bytes: row-major chunks, and the output copied out as bytes', async () => {
  await init();
  const M = currentModule();
  const rng = prng(61);
  const dims = [64, 4100]; // 525 KB: several staging chunks
  const x = bits(64 * 4100, rng);
  const feeds = recordCalls(M, '_feed', () => {
    checkStandIn('ArgMax', x, dims, [], { axis: -1 }, 13, 'ArgMax [64, 4100]');
    checkStandIn('ArgMin', x, dims, [], { axis: 1, select_last_index: 1, keepdims: 0 }, 13, 'ArgMin [64, 4100] select_last_index');
    checkStandIn('ReduceMax', x, dims, [axesInput(1)], {}, 18, 'ReduceMax [64, 4100] axes [1]');
  });
  assert.ok(feeds.length >= 6, 'row-major chunks were fed');
  const wide = bits(3 * 150001, rng); // a float16 output of 150,001 elements, copied out as bytes
  checkStandIn('ReduceMax', wide, [3, 150001], [axesInput(0)], { keepdims: 0 }, 18, 'ReduceMax [3, 150001] axes [0]');
});

test('a Float16Array input as column tiles copied as bytes', async () => {
  await init();
  const M = currentModule();
  const rng = prng(62);
  const dims = [2, 5, 90001];
  const x = bits(2 * 5 * 90001, rng);
  const tiles = recordCalls(M, '_feedTile', () => {
    checkStandIn('ArgMax', x, dims, [], { axis: 1 }, 13, 'ArgMax [2, 5, 90001] axis 1');
    checkStandIn('ReduceMax', x, dims, [axesInput(1)], { keepdims: 0 }, 18, 'ReduceMax [2, 5, 90001] axes [1]');
  });
  assert.ok(tiles.length > 0, 'the tiled path was taken');
  // Tiles whose rows lie alike modulo 64 are placed off the staging buffer's start
  // (chunk-placement.js): copied as bytes there too.
  const placedDims = [1, 21, 32768];
  const placedX = bits(21 * 32768, rng);
  const placed = recordCalls(M, '_feedTile', () => {
    for (let call = 0; call < 4; call += 1) {
      checkStandIn('ArgMax', placedX, placedDims, [], { axis: 1 }, 13, `ArgMax [1, 21, 32768] axis 1, call ${call}`, call === 0);
      checkStandIn('ArgMin', placedX, placedDims, [], { axis: 1, keepdims: 0 }, 13, `ArgMin [1, 21, 32768] axis 1, call ${call}`, call === 0);
    }
  });
  assert.ok(placed.some(([at]) => at !== session().staging), 'tiles placed off the staging buffer\'s start');
});

test('a Float16Array input gathered as bytes (windowed multi-axis ReduceMax)', async () => {
  await init();
  const M = currentModule();
  const rng = prng(63);
  const gatherBlocks = () => M.HEAPF64[M._responseAddress() / 8 + M.GATHER_WORD];
  const n = WINDOW_ABOVE_BYTES / 2 + 12345; // a float16 state per output, over the window threshold
  // [2, n, 2] over [0, 2]: whole slices of both blocks; [2, 3, 2, m]: runs of columns `stride` apart.
  checkStandIn('ReduceMax', bits(4 * n, rng), [2, n, 2], [axesInput(0, 2)], {}, 18, 'ReduceMax [2, n, 2] axes [0, 2]', false);
  assert.equal(gatherBlocks(), 2, '[2, n, 2]: gathered from 2 blocks');
  const m = Math.ceil(n / 3);
  checkStandIn('ReduceMax', bits(12 * m, rng), [2, 3, 2, m], [axesInput(0, 2)], { keepdims: 0 }, 20, 'ReduceMax [2, 3, 2, m] axes [0, 2]', false);
  assert.equal(gatherBlocks(), 2, '[2, 3, 2, m]: gathered from 2 blocks');
});
