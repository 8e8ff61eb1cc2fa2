// ReduceMax over a middle axis of bytes with a few columns after it ([N, R, w] over axis 1, w
// under 16: a byte image's rows per channel, a batch of small class maps) through the wasm
// build, against the reference: every w from 2 to 17 (ByteSlicesMax reads 16 rows as one
// virtual row of w vectors and folds them; the widths and lengths it does not take check the
// paths that do), R around its thresholds and its 16 KiB limit, inputs past one staging buffer
// so chunk boundaries split slices, and prefix axes reduced too ([2, N, R, w] over axes [0, 2]),
// whose blocks fold into the same states. int8, uint8 and bool (ReduceMax 20). A pool of the
// type's extremes and a few values, or of small values with the extremes rare.
// Replay a failure with OX_SEED=<seed> node --test tests/js/byte-slices.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { POOLS, randomTensor } from './values.mjs';

const seed = seedFromEnvironment(Date.now() % 2 ** 31);

function pool(type, rare) {
  if (!rare || type === 'bool') return POOLS[type];
  const [lo, hi] = type === 'int8' ? [-128, 127] : [0, 255];
  return [...Array(2000).fill([1, 2, 3, 5]).flat(), lo, hi]; // the extremes about once in 4000
}

const axesOf = (list) => ({ type: 'int64', data: BigInt64Array.from(list.map(BigInt)), dims: [list.length] });

test(`ReduceMax over byte slices narrower than a vector matches the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (const type of ['uint8', 'int8', 'bool'])
    for (let w = 2; w <= 17; w += 1)
      for (const r of [16, 17, 33, 64, 65, 256, Math.floor(16384 / w), Math.floor(16384 / w) + 1]) {
        // About 300 KiB: one staging buffer (256 KiB) and part of a second.
        const n = Math.max(1, Math.round(300000 / (r * w))) + rng.int(3);
        const values = pool(type, rng.int(2) === 1);
        const x = randomTensor(rng, type, [n, r, w], values);
        const keepdims = rng.pick([0, 1]);
        checkAgainstReference(runNode, 'ReduceMax', [x, axesOf([1])], { keepdims }, 20, `ReduceMax ${type} [${x.dims}] axis 1`);
        const y = randomTensor(rng, type, [2, Math.max(1, n >> 1), r, w], values);
        checkAgainstReference(runNode, 'ReduceMax', [y, axesOf([0, 2])], { keepdims }, 20, `ReduceMax ${type} [${y.dims}] axes [0, 2]`);
      }
});
