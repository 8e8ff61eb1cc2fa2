// Inputs larger than the 256 KiB staging chunk, so the input streams through several chunks and
// the running best value and index carry across them: reduced axes that span chunk boundaries in
// row layout (reduced axis innermost) and column layout (inner > 1), for 1- to 8-byte types, with
// winners, ties and NaNs placed right at the boundaries.
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { STAGING_BYTES } from '../../js/session.js';
import { checkAgainstReference, prng } from './helpers.mjs';
import { exactBits } from './exact-float.mjs';
import { TYPES } from './reference.mjs';

// 241 distinct values with plenty of repeats; 16-bit floats as bits, 64-bit integers as BigInt.
function fill(type, count, rng) {
  const info = TYPES[type];
  const table = [];
  for (let v = -120; v <= 120; v += 1) {
    if (info.family === 'float16' || info.family === 'bfloat16') table.push(exactBits(v / 4, type));
    else if (info.family === 'float') table.push(v / 4);
    else if (info.array === BigInt64Array) table.push(BigInt(v) * 2n ** 55n + 3n);
    else if (info.array === BigUint64Array) table.push(BigInt(v + 120) * 2n ** 56n + 1n);
    else table.push(type.startsWith('u') ? v + 120 : v);
  }
  const data = new info.array(count);
  for (let i = 0; i < count; i += 1) data[i] = table[rng.int(table.length)];
  return data;
}

// The type's largest value (a NaN for floats), to plant at chunk boundaries.
function winner(type, nan) {
  const family = TYPES[type].family;
  if (family === 'float') return nan ? NaN : 1e6;
  if (family === 'float16') return nan ? 0x7e00 : 0x7bff;
  if (family === 'bfloat16') return nan ? 0x7fc0 : 0x7f7f;
  if (type === 'int64') return 2n ** 63n - 1n;
  if (type === 'uint64') return 2n ** 64n - 1n;
  return { int8: 127, uint8: 255, int32: 2147483647, uint32: 4294967295 }[type];
}

// Plants the same winner on both sides of every chunk boundary (a tie across chunks) and, with
// nan, NaNs at a few boundaries.
function plant(data, type, nan) {
  const perChunk = Math.floor(STAGING_BYTES / data.BYTES_PER_ELEMENT);
  for (let b = perChunk; b < data.length; b += perChunk) {
    data[b - 1] = winner(type, false);
    data[b] = winner(type, false);
    if (nan && (b / perChunk) % 2 === 1) data[b + 1] = winner(type, true);
  }
}

// [dims, calls]: each reduced axis spans several chunks, or its rows/columns straddle them.
const SHAPES = [
  // Rows longer than a chunk (axis 1); columns whose inner (100,003) is larger than a chunk (axis 0).
  [[3, 100003], [['ArgMax', { axis: 1, select_last_index: 1 }], ['ArgMin', { axis: 1 }], ['ArgMax', { axis: 0 }], ['Hardmax', { axis: 1 }], ['ReduceMax', { axes: [1] }], ['ReduceMax', { axes: [0] }]]],
  // Columns with a small inner (axis 0, 100,003 long); many short rows (axis 1).
  [[100003, 3], [['ArgMax', { axis: 0 }], ['ArgMin', { axis: 0, select_last_index: 1 }], ['ArgMax', { axis: 1, keepdims: 0 }], ['Hardmax', { axis: 0 }], ['ReduceMax', { axes: [0] }]]],
  // A middle axis, and two reduced axes around a kept one.
  [[41, 61, 127], [['ArgMax', { axis: 1 }], ['ReduceMax', { axes: [0, 2], keepdims: 0 }], ['ReduceMax', {}]]],
];

const TYPES_TO_RUN = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int32', 'uint32', 'int64', 'uint64'];

test('inputs over the staging chunk: every chunk boundary crossed, in rows and columns', async (t) => {
  await init();
  const rng = prng(2024);
  for (const type of TYPES_TO_RUN) {
    await t.test(type, () => {
      for (const [dims, calls] of SHAPES) {
        const count = dims.reduce((p, d) => p * d, 1);
        const nan = TYPES[type].family !== 'int' && rng.chance(0.5);
        const data = fill(type, count, rng);
        plant(data, type, nan);
        const x = { type, data, dims };
        const where = `${type} ${JSON.stringify(dims)}${nan ? ' with NaN' : ''}`;
        for (const [op, attrs] of calls) {
          if (op === 'Hardmax' && TYPES[type].family === 'int') continue;
          checkAgainstReference(runNode, op, [x], attrs, 13, `${where} ${op} ${JSON.stringify(attrs)}`);
        }
      }
    });
  }
  // Hardmax 11 coerces [2, 3, 50001] to 2 rows of 150,003 elements, each over several chunks.
  for (const nan of [false, true]) {
    const data = fill('float32', 2 * 3 * 50001, rng);
    plant(data, 'float32', nan);
    checkAgainstReference(runNode, 'Hardmax', [{ type: 'float32', data, dims: [2, 3, 50001] }], {}, 11, `Hardmax 11 nan ${nan}`);
  }
});
