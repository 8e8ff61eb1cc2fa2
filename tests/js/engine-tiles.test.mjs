// The column-tile path of js/feed.js: a wide column plan (ArgMax over the channels of a
// segmentation map) streams as tiles of columns of every reduced row, the rows in parts where they
// do not all fit the staging buffer. Shapes here take that path (checked by watching the module's
// _feedTile), with a narrower last tile in every slice, for
// every dtype of ArgMax/ArgMin (both select_last values), Hardmax and single-axis ReduceMax,
// NaNs and maxima planted on both sides of each tile edge; results against the plain reference.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';
import { checkAgainstReference, prng } from './helpers.mjs';
import { TYPES, bfloat16Value, float16Value } from './reference.mjs';
import { nansOf, numbersOf } from './values.mjs';

const ARG_TYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
const REDUCE_TYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int32', 'uint32', 'int64', 'uint64', 'bool'];
const HARDMAX_TYPES = ['float32', 'float64', 'float16', 'bfloat16'];

const numberOf = (type, v) => {
  const family = TYPES[type].family;
  return family === 'float16' ? float16Value(v) : family === 'bfloat16' ? bfloat16Value(v) : v;
};

// Records the tiles (or parts of tiles) the engine feeds: [outer index, first column, width,
// first row, rows].
function watchTiles(M) {
  const tiles = [];
  const original = M._feedTile;
  M._feedTile = (at, o, c, w, r0, rows, stride) => (tiles.push([o, c, w, r0, rows]), original.call(M, at, o, c, w, r0, rows, stride));
  return { tiles, restore: () => void (M._feedTile = original) };
}

// Every slice left to right in tiles of one width (the last narrower), slices in order, each
// tile's rows in parts of one size (the last shorter; one part where they all fit).
function assertTiling(tiles, [outer, reduce, inner], where) {
  assert.ok(tiles.length > 0, `${where}: the tiled path was taken`);
  const width = tiles[0][2], partRows = tiles[0][4];
  const expected = [];
  for (let o = 0; o < outer; o += 1)
    for (let c = 0; c < inner; c += width)
      for (let r0 = 0; r0 < reduce; r0 += partRows) expected.push([o, c, Math.min(width, inner - c), r0, Math.min(partRows, reduce - r0)]);
  assert.deepEqual(tiles, expected, `${where}: tiles`);
  assert.ok(inner % width !== 0, `${where}: a narrower last tile`);
  return { width, partRows };
}

// Data drawn from the type's pool without NaN (ties are common), then at each tile edge (columns
// c - 1 and c) a NaN (floating types, now and then) or the type's highest value in a random row.
function fill(type, dims, width, rng) {
  const [outer, reduce, inner] = dims;
  const numbers = numbersOf(type);
  const nans = nansOf(type);
  const data = new TYPES[type].array(outer * reduce * inner);
  for (let i = 0; i < data.length; i += 1) data[i] = numbers[rng.int(numbers.length)];
  const top = numbers.reduce((a, b) => (numberOf(type, b) > numberOf(type, a) ? b : a));
  for (let c = width; c < inner; c += width)
    for (const column of [c - 1, c]) {
      const at = (rng.int(outer) * reduce + rng.int(reduce)) * inner + column;
      data[at] = nans.length > 0 && rng.chance(0.5) ? nans[rng.int(nans.length)] : top;
    }
  return data;
}

// Runs op once to learn the tile width, then on data planted at those tile edges, against the reference.
// Returns the tiling the engine took ({ width, partRows }).
function checkTiled(M, rng, op, type, dims, attrs, opset) {
  const where = `${op} ${type} ${JSON.stringify(dims)} ${JSON.stringify(attrs)}`;
  const inputs = (data) => (op === 'ReduceMax' ? [{ type, data, dims }, { type: 'int64', data: BigInt64Array.of(1n), dims: [1] }] : [{ type, data, dims }]);
  const count = dims[0] * dims[1] * dims[2];
  const watch = watchTiles(M);
  let tiling;
  try {
    runNode(op, inputs(new TYPES[type].array(count)), attrs, opset);
    tiling = assertTiling(watch.tiles, dims, where);
    watch.tiles.length = 0;
    checkAgainstReference(runNode, op, inputs(fill(type, dims, tiling.width, rng)), attrs, opset, where);
    assert.deepEqual(assertTiling(watch.tiles, dims, where), tiling);
  } finally {
    watch.restore();
  }
  return tiling;
}

test('column tiles: ArgMax and ArgMin in every dtype, a narrower last tile in each slice', async () => {
  await init();
  const M = currentModule();
  const rng = prng(31);
  for (const type of ARG_TYPES) {
    checkTiled(M, rng, 'ArgMax', type, [2, 5, 70001], { axis: 1, keepdims: 0 }, 13);
    checkTiled(M, rng, 'ArgMax', type, [1, 5, 70001], { axis: 1, select_last_index: 1 }, 13);
    checkTiled(M, rng, 'ArgMin', type, [1, 5, 70001], { axis: 1, select_last_index: rng.int(2) }, 13);
  }
});

test('column tiles of more than 8 rows a multiple of 4 KiB apart are one SIMD tile narrower', async () => {
  await init();
  const M = currentModule();
  const rng = prng(33);
  // 256 KiB of staging over 16 rows: 4096 float32 (16 KiB rows, one L1 set), so 4080; 32 rows of
  // uint8: 8192 -> 8176.
  assert.deepEqual(checkTiled(M, rng, 'ArgMax', 'float32', [1, 16, 40001], { axis: 1 }, 13), { width: 4080, partRows: 16 });
  assert.deepEqual(checkTiled(M, rng, 'ArgMin', 'uint8', [1, 32, 60001], { axis: 1, select_last_index: 1 }, 13), { width: 8176, partRows: 32 });
  assert.deepEqual(checkTiled(M, rng, 'Hardmax', 'float32', [1, 16, 40001], { axis: 1 }, 13), { width: 4080, partRows: 16 });
});

test('column tiles whose rows do not fit the staging buffer go in parts of rows', async () => {
  await init();
  const M = currentModule();
  const rng = prng(34);
  // Rows of 8 KiB would not fit (more than 32 float32 rows): rows of 16 KiB, a SIMD tile narrower
  // (4080 float32), 16 to a buffer, so 40 rows go in three parts of 14 (the last 12).
  const parted = { width: 4080, partRows: 14 };
  assert.deepEqual(checkTiled(M, rng, 'ArgMax', 'float32', [1, 40, 40001], { axis: 1 }, 13), parted);
  assert.deepEqual(checkTiled(M, rng, 'ArgMin', 'float32', [2, 40, 40001], { axis: 1, select_last_index: 1 }, 13), parted);
  assert.deepEqual(checkTiled(M, rng, 'Hardmax', 'float32', [1, 40, 40001], { axis: 1 }, 13), parted);
  assert.deepEqual(checkTiled(M, rng, 'ArgMax', 'float16', [1, 40, 50001], { axis: 1, select_last_index: 1 }, 13), { width: 8176, partRows: 14 });
  assert.deepEqual(checkTiled(M, rng, 'ArgMax', 'uint8', [1, 70, 60001], { axis: 1 }, 13), { width: 16368, partRows: 14 });
  assert.deepEqual(checkTiled(M, rng, 'ArgMin', 'float64', [1, 33, 40001], { axis: 1 }, 13), { width: 2032, partRows: 11 });
  assert.deepEqual(checkTiled(M, rng, 'ArgMax', 'int64', [1, 33, 40001], { axis: 1, select_last_index: 1 }, 13), { width: 2032, partRows: 11 });
});

test('column tiles: Hardmax along a middle axis and single-axis ReduceMax, every dtype', async () => {
  await init();
  const M = currentModule();
  const rng = prng(32);
  for (const type of HARDMAX_TYPES) checkTiled(M, rng, 'Hardmax', type, [2, 5, 70001], { axis: 1 }, 13);
  // ReduceMax keeps no index: a slice's state outgrows the cache at 64 KiB of values.
  for (const type of REDUCE_TYPES) {
    const dims = TYPES[type].array.BYTES_PER_ELEMENT === 1 ? [1, 3, 270001] : [1 + rng.int(2), 3, 140001];
    checkTiled(M, rng, 'ReduceMax', type, dims, { keepdims: rng.int(2) }, 20);
  }
});

test('column tiles from a typed-array subclass (read through a plain view of its memory; Float16Array bytes: float16array-bytes.test.mjs)', async () => {
  await init();
  const M = currentModule();
  class Scores extends Float32Array {}
  const rng = prng(33);
  const dims = [1, 4, 90001];
  const plain = fill('float32', dims, 2000, rng);
  const watch = watchTiles(M);
  try {
    const got = runNode('ArgMax', [{ type: 'float32', data: Scores.from(plain), dims }], { axis: 1 }, 13)[0];
    const want = runNode('ArgMax', [{ type: 'float32', data: plain, dims }], { axis: 1 }, 13)[0];
    assert.ok(watch.tiles.length > 0);
    assert.deepEqual(got.data, want.data);
    checkAgainstReference(runNode, 'ArgMax', [{ type: 'float32', data: Scores.from(plain), dims }], { axis: 1 }, 13, 'subclass');
  } finally {
    watch.restore();
  }
});
