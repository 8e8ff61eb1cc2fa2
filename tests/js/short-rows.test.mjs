// Many short rows through the wasm build, against the reference: class scores in NHWC layout
// ([1, H, W, C] reduced over the last axis, C from a pair to past the short-row limit), which
// the kernels transpose block by block and reduce as columns. Inputs past one staging buffer, so
// chunk boundaries split rows; values mostly distinct-ish with ties, rare NaN, and ±0. Also many
// small slices over a middle axis ([N, 4, 5] over axis 1), which go through the scratch side by
// side, and slices of a few columns over a longer axis ([N, 256, 3]), whose columns are
// transposed into rows (SlicesAsRows).
// Replay a failure with OX_SEED=<seed> node --test tests/js/short-rows.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { TYPES as REFERENCE_TYPES } from './reference.mjs';
import { POOLS, isFloatType, nansOf, numbersOf, randomTensor } from './values.mjs';

const TYPES = ['float32', 'float16', 'bfloat16', 'float64', 'uint8', 'int8', 'int32', 'int64'];
// 4 and 8: split in registers for 1- and 2-byte types; 5, 7 and 12: byte rows by halving
// (ReduceMax, and the arg kinds' 16-bit keys); 4-12: float64 and int64 arg kinds two rows to a
// vector (ColumnScan::paired_rows); 12-64: ReduceMax by halving, float32 (rows of 5-96) and
// float16/bfloat16 (9-64: two loads a row to 16, a loop past it); 6: 16-bit rows as three 4-byte
// units split in registers; 6-40: float32 ArgMax and Hardmax, and int32 ArgMax, by squares of four
// rows transposed in registers (ColumnScan::square_rows).
const CLASSES = [2, 3, 4, 5, 6, 7, 8, 12, 16, 21, 40, 64, 150];

// Float types, half the tensors: the pool without NaN, repeated, plus one NaN (about one value in
// 700 is NaN). The other half: no NaN, and for float32/float64 no infinity or extreme either. A
// staged chunk holding a NaN (or, for their running sums, both infinities) sends the fast ways
// (whole rows decided in registers, the column passes' pmax) to the exact one, so only such
// chunks show what the fast ways decide. Integer pools are small already: ties are common.
function pool(type, rng) {
  if (!isFloatType(type)) return POOLS[type];
  if (rng.int(2) === 0) return [...Array(700).fill(numbersOf(type)).flat(), nansOf(type)[0]];
  const numbers = numbersOf(type);
  return type === 'float32' || type === 'float64' ? numbers.filter((v) => Math.abs(v) < 1e30) : numbers;
}

const seed = seedFromEnvironment(Date.now() % 2 ** 31);

test(`short rows (NHWC class maps) match the reference for every kind and dtype (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (const type of TYPES) {
    for (const classes of CLASSES) {
      const values = pool(type, rng);
      // About 300 KiB: one staging buffer and part of a second.
      const elements = 300000 / REFERENCE_TYPES[type].array.BYTES_PER_ELEMENT;
      const w = Math.max(3, Math.round(elements / (classes * 40)) + rng.int(5));
      const x = randomTensor(rng, type, [1, 40, w, classes], values);
      const where = `${type} [1,40,${w},${classes}]`;
      for (const op of ['ArgMax', 'ArgMin']) {
        const attrs = { axis: rng.pick([-1, 3]), keepdims: rng.pick([0, 1]), select_last_index: rng.pick([0, 1]) };
        checkAgainstReference(runNode, op, [x], attrs, 13, `${op} ${where} ${JSON.stringify(attrs)}`);
      }
      const axes = { type: 'int64', data: BigInt64Array.from([-1n]), dims: [1] };
      checkAgainstReference(runNode, 'ReduceMax', [x, axes], { keepdims: rng.pick([0, 1]) }, 18, `ReduceMax ${where}`);
      if (['float32', 'float16', 'bfloat16', 'float64'].includes(type))
        checkAgainstReference(runNode, 'Hardmax', [x], { axis: -1 }, 13, `Hardmax ${where}`);
    }
  }
});

test(`many small slices of a strided axis match the reference for every kind and dtype (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed + 1);
  for (const type of TYPES) {
    for (const [reduce, inner] of [[4, 5], [2, 3], [3, 8], [5, 2], [7, 17], [40, 3], [17, 2], [64, 7], [256, 3], [1001, 3]]) {
      const values = pool(type, rng);
      // Past one staging buffer for the wider types, so chunks split slices.
      const n = Math.round(80000 / (reduce * inner)) + rng.int(7);
      const x = randomTensor(rng, type, [n, reduce, inner], values);
      const where = `${type} [${n},${reduce},${inner}]`;
      for (const op of ['ArgMax', 'ArgMin']) {
        const attrs = { axis: rng.pick([1, -2]), keepdims: rng.pick([0, 1]), select_last_index: rng.pick([0, 1]) };
        checkAgainstReference(runNode, op, [x], attrs, 13, `${op} ${where} ${JSON.stringify(attrs)}`);
      }
      const axes = { type: 'int64', data: BigInt64Array.from([1n]), dims: [1] };
      checkAgainstReference(runNode, 'ReduceMax', [x, axes], { keepdims: rng.pick([0, 1]) }, 18, `ReduceMax ${where}`);
      if (['float32', 'float16', 'bfloat16', 'float64'].includes(type))
        checkAgainstReference(runNode, 'Hardmax', [x], { axis: 1 }, 13, `Hardmax ${where}`);
    }
  }
});
