// Narrow columns through the wasm build, against the reference: [N, w] over axis 0 (a point
// cloud's bounding box, the best row for each of a few classes) and [A, N, w] and [A, 256, w] over
// axis 1, for every width under the dtype's column tile (2 to 15 for bytes) and some past it: whole
// tiles under a register group and tiles and a part. The kernels read R rows as one wide virtual
// row and merge each column's R candidates. Inputs past one staging buffer, so chunk boundaries
// split rows; pools with many ties at the extremes or with rare extremes, with or without rare NaN.
// Replay a failure with OX_SEED=<seed> node --test tests/js/narrow-columns.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { TYPES } from './reference.mjs';
import { isFloatType, nansOf, numberOf, numbersOf, randomTensor } from './values.mjs';

const TESTED = ['float32', 'float16', 'bfloat16', 'float64', 'uint8', 'int8', 'int32', 'int64'];

// The type's pool (many ties at the extremes, ±inf, ±0); its small values (|v| <= 3) repeated with
// each other value once, so a column's extreme is rare and anywhere; for the float types also
// zeros among negatives (-0 ties +0: the first zero of either sign wins). Either with one NaN in
// about 2000 values for the float types.
const VARIANTS = 3;
function pool(type, variant, withNan) {
  const numbers = numbersOf(type);
  const small = numbers.filter((v) => Math.abs(numberOf(type, v)) <= 3);
  const zeros = numbers.filter((v) => numberOf(type, v) <= 0 && numberOf(type, v) > -8);
  const base =
    variant === 0 ? numbers
    : variant === 1 || !isFloatType(type) ? [...Array(3000).fill(small).flat(), ...numbers.filter((v) => !small.includes(v))]
    : zeros;
  if (!isFloatType(type) || !withNan) return base;
  return [...Array(Math.ceil(2000 / base.length)).fill(base).flat(), nansOf(type)[0]];
}

const seed = seedFromEnvironment(Date.now() % 2 ** 31);

test(`narrow columns match the reference for every kind and dtype (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (const type of TESTED) {
    const size = TYPES[type].array.BYTES_PER_ELEMENT;
    const tile = Math.max(4, 16 / size); // the column kernels' narrowest width
    const widths = [...Array(tile - 2).keys()].map((k) => k + 2).concat([tile, tile + 1, 2 * tile - 1, 2 * tile, 3 * tile + 1]);
    for (const w of widths) {
      const values = pool(type, rng.int(VARIANTS), rng.int(2) === 1);
      // About 300 KiB: one staging buffer and part of a second.
      const n = Math.round(300000 / (w * size)) + rng.int(17);
      // Also slices of 256 rows (the middle axis of [N, 256, w]: a short slice's own virtual rows).
      const shapes = [[n, w], [3, Math.round(n / 3), w], [Math.round(n / 256) + 1, 256, w]];
      for (const dims of shapes) {
        const x = randomTensor(rng, type, dims, values);
        const axis = dims.length - 2;
        const where = `${type} [${dims}] axis ${axis}`;
        for (const op of ['ArgMax', 'ArgMin']) {
          const attrs = { axis, keepdims: rng.pick([0, 1]), select_last_index: rng.pick([0, 1]) };
          checkAgainstReference(runNode, op, [x], attrs, 13, `${op} ${where} ${JSON.stringify(attrs)}`);
        }
        const axes = { type: 'int64', data: BigInt64Array.from([BigInt(axis)]), dims: [1] };
        checkAgainstReference(runNode, 'ReduceMax', [x, axes], { keepdims: rng.pick([0, 1]) }, 18, `ReduceMax ${where}`);
        if (isFloatType(type)) checkAgainstReference(runNode, 'Hardmax', [x], { axis }, 13, `Hardmax ${where}`);
      }
    }
  }
});
