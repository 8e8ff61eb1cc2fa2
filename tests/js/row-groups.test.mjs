// ReduceMax and ArgMax over rows of a few dozen float32, float64 and int32 values ([N, 64] over
// the last axis; [8400, 80] class scores), which the kernels reduce N rows at a time and fold by
// halving (ArgMax then finds each row's first maximum), handing back to the row kernel the groups
// whose maxima they cannot vouch for: rows with a NaN, with +inf beside -inf, and rows whose
// maximum is a zero of either sign, amid plain rows. (api.md leaves such a zero's sign open, so
// the reference takes either; tests/native/simd_row_group_max_test.cc checks the kernels keep the
// first zero's bits.) Also over two separated axes ([3, N, L] over axes 0 and 2), where each row
// folds into a state the earlier blocks left. ReduceMax over int64 rows goes by pairs of rows from
// rows of 5 values: those lengths, the extremes of the type and wide values between them; float64
// from rows of 8 (and rows of 7 beside them, which the short-row path keeps).
// float16/bfloat16 rows (eight a group by their raw bits) under both tie rules too.
// Replay a failure with OX_SEED=<seed> node --test tests/js/row-groups.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { POOLS, randomTensor } from './values.mjs';
import { exactBits } from './exact-float.mjs';

const seed = seedFromEnvironment(Date.now() % 2 ** 31);
const ARRAYS = { float32: Float32Array, float64: Float64Array, int32: Int32Array }; // int32: the same values truncated
const LENGTHS = [23, 25, 37, 48, 49, 64, 80, 100, 128, 129, 150, 255, 256, 257, 513];
const FLOAT64_SHORT = [7, 8, 9, 11, 12, 13]; // ReduceMax groups float64 rows from 8 values

// Rows of wide values, each made special with some chance: all non-positive with zeros of both
// signs (the first zero's sign at random), a NaN, or both infinities.
function rowsOf(rng, type, rows, length, blocks = 1) {
  const data = new ARRAYS[type](blocks * rows * length);
  for (let i = 0; i < data.length; i += 1) data[i] = (rng.next() - 0.5) * 2000;
  for (let r = 0; r < blocks * rows; r += 1) {
    const row = data.subarray(r * length, (r + 1) * length);
    const kind = rng.int(8);
    if (kind === 0 || kind === 1) {
      for (let j = 0; j < length; j += 1) row[j] = rng.chance(0.3) ? (rng.chance(0.5) ? -0 : 0) : -Math.abs(row[j]);
      const first = rng.int(length);
      row[first] = rng.chance(0.5) ? -0 : 0;
      row[first + rng.int(length - first)] = row[first] === 0 && 1 / row[first] > 0 ? -0 : 0;
    } else if (kind === 2) {
      row[rng.int(length)] = NaN;
    } else if (kind === 3) {
      row[rng.int(length)] = Infinity;
      row[rng.int(length)] = -Infinity;
    }
  }
  return data;
}

test(`ReduceMax, ArgMax and Hardmax over rows of a few dozen values match the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (const type of Object.keys(ARRAYS))
    for (const length of type === 'float64' ? [...FLOAT64_SHORT, ...LENGTHS] : LENGTHS) {
      const rows = 4 * 8 + rng.int(9);
      const x = { type, data: rowsOf(rng, type, rows, length), dims: [rows, length] };
      const last = { type: 'int64', data: BigInt64Array.from([-1n]), dims: [1] };
      checkAgainstReference(runNode, 'ReduceMax', [x, last], { keepdims: 0 }, 18, `${type} [${rows},${length}]`);
      for (const select_last_index of [0, 1])
        checkAgainstReference(runNode, 'ArgMax', [x], { axis: -1, select_last_index }, 13, `ArgMax ${type} [${rows},${length}]`);
      if (type !== 'int32') checkAgainstReference(runNode, 'Hardmax', [x], { axis: -1 }, 13, `Hardmax ${type} [${rows},${length}]`);
      const y = { type, data: rowsOf(rng, type, rows, length, 3), dims: [3, rows, length] };
      const outer = { type: 'int64', data: BigInt64Array.from([0n, 2n]), dims: [2] };
      checkAgainstReference(runNode, 'ReduceMax', [y, outer], { keepdims: 1 }, 18, `${type} [3,${rows},${length}] axes 0, 2`);
    }
});

test(`ReduceMax over int64 rows by pairs of rows matches the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed + 1);
  // The pool's extremes and edges, and wide values of either sign (so a row's maximum is not
  // always the type's largest), every one as likely.
  const wide = () => (BigInt(Math.floor((rng.next() - 0.5) * 2 ** 32)) << 31n) ^ BigInt(rng.int(2 ** 31));
  const values = [...POOLS.int64, ...Array.from({ length: 60 }, wide)];
  for (const length of [4, 5, 6, 7, 12, 13, 21, 64, 127, 128, 129, 257]) {
    const rows = 4 * 2 + rng.int(9);
    const x = randomTensor(rng, 'int64', [rows, length], values);
    const last = { type: 'int64', data: BigInt64Array.from([-1n]), dims: [1] };
    checkAgainstReference(runNode, 'ReduceMax', [x, last], { keepdims: rng.pick([0, 1]) }, 18, `int64 [${rows},${length}]`);
    const y = randomTensor(rng, 'int64', [3, rows, length], values);
    const outer = { type: 'int64', data: BigInt64Array.from([0n, 2n]), dims: [2] };
    checkAgainstReference(runNode, 'ReduceMax', [y, outer], { keepdims: 1 }, 18, `int64 [3,${rows},${length}] axes 0, 2`);
  }
});

// float16/bfloat16 rows of 81 values to 128 vectors go eight at a time by their raw bits (int16
// maxima where every row's maximum is positive, uint16 maxima where every row's minimum is
// negative), under both tie rules; the other groups go row by row. Rows of finite values of
// both signs, or of few distinct values (ties across the row; zeros of both signs among them);
// with `specials`, some rows all negative, all non-negative, or with one or two NaN.
function halfRowsOf(rng, format, rows, length, specials) {
  const inf = format === 'float16' ? 0x7c00 : 0x7f80;
  const few = [0, -0, 1, -1, 2, -2, 0.5].map((v) => exactBits(v, format));
  const data = new Uint16Array(rows * length);
  for (let i = 0; i < data.length; i += 1) data[i] = (rng.chance(0.5) ? 0x8000 : 0) | rng.int(inf);
  for (let r = 0; r < rows; r += 1) {
    const row = data.subarray(r * length, (r + 1) * length);
    const kind = specials ? rng.int(6) : 3 + rng.int(2);
    if (kind === 0) row.forEach((v, j) => (row[j] = v | 0x8000));
    else if (kind === 1) row.forEach((v, j) => (row[j] = v & 0x7fff));
    else if (kind === 2) for (let k = 0; k < 1 + rng.int(2); k += 1) row[rng.int(length)] = (rng.chance(0.5) ? 0x8000 : 0) | inf | (1 + rng.int(0x3f));
    else if (kind === 3) row.forEach((_, j) => (row[j] = few[rng.int(few.length)]));
  }
  return data;
}

test(`float16 and bfloat16 rows of a few dozen to a thousand values match the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed + 2);
  for (const type of ['float16', 'bfloat16'])
    for (const length of [80, 81, 88, 100, 150, 256, 384, 1000, 1024, 1025]) {
      for (const specials of [false, true]) {
        const rows = 4 * 8 + rng.int(9);
        const x = { type, data: halfRowsOf(rng, type, rows, length, specials), dims: [rows, length] };
        for (const op of ['ArgMax', 'ArgMin'])
          for (const select_last_index of [0, 1])
            checkAgainstReference(runNode, op, [x], { axis: -1, select_last_index }, 13, `${op} ${type} [${rows},${length}] last ${select_last_index}`);
        const last = { type: 'int64', data: BigInt64Array.from([-1n]), dims: [1] };
        checkAgainstReference(runNode, 'ReduceMax', [x, last], { keepdims: 0 }, 18, `ReduceMax ${type} [${rows},${length}]`);
        checkAgainstReference(runNode, 'Hardmax', [x], { axis: -1 }, 13, `Hardmax ${type} [${rows},${length}]`);
      }
    }
});
