// ReduceMax over a middle axis with a few columns after it ([N, R, w] over axis 1: a byte
// image's rows per channel, a batch of small class maps) through the wasm build, against the
// reference, for every w from 2 to 17. Bytes (int8, uint8, bool: ByteSlicesMax) and float16 /
// bfloat16 (HalfSlicesMax): 16 / size rows read as one virtual row of w vectors and folded;
// float32 and float64 through their own paths. The widths and lengths a path does not take check
// the paths that do. R around the thresholds and 16 KiB limits, inputs past one staging buffer so
// chunk boundaries split slices, and prefix axes reduced too ([2, N, R, w] over axes [0, 2]),
// whose blocks fold into the same states. Pools: the type's own (NaN, ±0, ±inf, extremes), or
// small values with the extremes rare; for the floats also zeros of both signs among negatives
// and negatives only, either with one NaN (of either sign) in about 3000 values.
// Replay a failure with OX_SEED=<seed> node --test tests/js/middle-axis-max.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { TYPES } from './reference.mjs';
import { POOLS, nansOf, numberOf, numbersOf, randomTensor } from './values.mjs';

const seed = seedFromEnvironment(Date.now() % 2 ** 31);

function pool(type, variant, rng) {
  if (type === 'bool') return POOLS.bool;
  const numbers = numbersOf(type);
  const small = numbers.filter((v) => Math.abs(numberOf(type, v)) <= 3);
  const rare = [...Array(2000).fill(small).flat(), ...numbers]; // the extremes about once in several thousand
  if (type === 'int8' || type === 'uint8') return variant % 2 === 0 ? POOLS[type] : rare;
  const zeros = numbers.filter((v) => numberOf(type, v) <= 0); // ±0 among negatives
  const negatives = numbers.filter((v) => numberOf(type, v) < 0);
  const base = [POOLS[type], rare, zeros, negatives][variant];
  const nans = nansOf(type); // (once: made per entry of `rare`, it took a fifth of this file's time)
  const numeric = base.filter((v) => !nans.includes(v));
  return rng.int(2) === 1 ? [...Array(Math.ceil(3000 / numeric.length)).fill(numeric).flat(), rng.pick(nans)] : numeric;
}

const axesOf = (list) => ({ type: 'int64', data: BigInt64Array.from(list.map(BigInt)), dims: [list.length] });

const WIDTHS = { uint8: 17, int8: 17, bool: 17, float16: 17, bfloat16: 17, float32: 17, float64: 17 };

test(`ReduceMax over a middle axis of narrow columns matches the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (const type of Object.keys(WIDTHS)) {
    const size = TYPES[type].array.BYTES_PER_ELEMENT;
    for (let w = 2; w <= WIDTHS[type]; w += 1)
      for (const r of [8, 16, 17, 33, 64, 65, 256, Math.floor(16384 / (w * size)), Math.floor(16384 / (w * size)) + 1]) {
        // About 300 KiB: one staging buffer (256 KiB) and part of a second.
        const n = Math.max(1, Math.round(300000 / (r * w * size))) + rng.int(3);
        const values = pool(type, rng.int(4), rng);
        const x = randomTensor(rng, type, [n, r, w], values);
        const keepdims = rng.pick([0, 1]);
        checkAgainstReference(runNode, 'ReduceMax', [x, axesOf([1])], { keepdims }, 20, `ReduceMax ${type} [${x.dims}] axis 1`);
        const y = randomTensor(rng, type, [2, Math.max(1, n >> 1), r, w], values);
        checkAgainstReference(runNode, 'ReduceMax', [y, axesOf([0, 2])], { keepdims }, 20, `ReduceMax ${type} [${y.dims}] axes [0, 2]`);
      }
  }
});
