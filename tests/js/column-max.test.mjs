// ReduceMax over columns (axis 0 of [R, W], axis 1 of [N, R, W]) of float32, float64, float16 and
// bfloat16 through the wasm build, against the reference. The columns' fast passes (float32 and
// the 16-bit floats: a raw pass over the bits first, exact only where a column's maximum is a
// positive number and no NaN shows) must hand every other column to an exact pass: the data are
// positive but for values planted in random columns at random rows: NaNs of either sign (as
// bits: a negative NaN shows only in the unsigned maximum), infinities, columns all negative,
// and columns whose maximum is a zero of either sign among negatives.
// Replay a failure with OX_SEED=<seed> node --test tests/js/column-max.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { exactBits } from './exact-float.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { TYPES } from './reference.mjs';

const seed = seedFromEnvironment(Date.now() % 2 ** 31);

// NaN bits of either sign and payload (float32 and the 16-bit floats are written as bits, so NaN
// signs survive; float64 takes JS's NaN).
const NANS = {
  float32: [0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001],
  float16: [0x7e00, 0xfe00, 0x7c01, 0xfc01],
  bfloat16: [0x7fc0, 0xffc0, 0x7f81, 0xff81],
};

function columnTensor(rng, type, dims) {
  const rows = dims[dims.length - 2], width = dims[dims.length - 1];
  const count = dims.reduce((a, b) => a * b, 1);
  const data = new TYPES[type].array(count);
  const half = type === 'float16' || type === 'bfloat16';
  const bits = type === 'float32' ? new Uint32Array(data.buffer) : data;
  const set = (i, v) => (data[i] = half ? exactBits(v, type) : v); // (numbers: exact in each type)
  const setNan = (i) => (type === 'float64' ? (data[i] = NaN) : (bits[i] = rng.pick(NANS[type])));
  const positive = () => Math.round(rng.next() * 400) / 4 + 0.25;
  for (let i = 0; i < count; i += 1) set(i, positive());
  // Per outer slice, a few columns get a special value, or are a special kind of column.
  for (let base = 0; base < count; base += rows * width) {
    for (let p = rng.int(4); p > 0; p -= 1) {
      const c = rng.int(width), at = (r) => base + r * width + c;
      switch (rng.int(5)) {
        case 0: // a NaN at a random row
          setNan(at(rng.int(rows)));
          break;
        case 1: // an infinity of either sign
          set(at(rng.int(rows)), rng.pick([Infinity, -Infinity]));
          break;
        case 2: // the whole column negative
          for (let r = 0; r < rows; r += 1) set(at(r), -positive());
          break;
        case 3: // negatives and zeros of both signs: a zero maximum, whose sign is the first zero's
          for (let r = 0; r < rows; r += 1) set(at(r), rng.pick([-0, 0, -1.5, -3]));
          break;
        default: // a zero of either sign in a positive column (not its maximum)
          set(at(rng.int(rows)), rng.pick([-0, 0]));
      }
    }
  }
  return { type, data, dims };
}

const axesOf = (list) => ({ type: 'int64', data: BigInt64Array.from(list.map(BigInt)), dims: [list.length] });

test(`ReduceMax over columns with planted NaNs, infinities, negative and zero-maximum columns matches the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (const type of ['float32', 'float16', 'bfloat16', 'float64']) {
    for (const rows of [8, 16, 33, 64, 200])
      for (const width of [16, 64, 100, 1024]) {
        const x = columnTensor(rng, type, [rows, width]);
        checkAgainstReference(runNode, 'ReduceMax', [x, axesOf([0])], { keepdims: 0 }, 18, `ReduceMax ${type} [${x.dims}] axis 0`);
        const outer = rng.range(2, 5);
        const y = columnTensor(rng, type, [outer, rows, width]);
        checkAgainstReference(runNode, 'ReduceMax', [y, axesOf([1])], { keepdims: 1 }, 18, `ReduceMax ${type} [${y.dims}] axis 1`);
      }
    // Past one staging buffer, so chunks split the rows: [R, 1024] over axis 0.
    const big = columnTensor(rng, type, [Math.ceil(400000 / (1024 * TYPES[type].array.BYTES_PER_ELEMENT)), 1024]);
    checkAgainstReference(runNode, 'ReduceMax', [big, axesOf([0])], { keepdims: 0 }, 18, `ReduceMax ${type} [${big.dims}] axis 0`);
  }
});
