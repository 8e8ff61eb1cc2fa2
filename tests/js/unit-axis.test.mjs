// An axis of one element: every ArgMax/ArgMin index is 0 and every Hardmax output 1, whatever the
// values (NaN too). The plan reads such a call as one row of all the outputs (one pass, not a
// column call per outer slice), so the shapes put the axis first, last and between, with inputs
// past one staging buffer, against the reference.
// Replay a failure with OX_SEED=<seed> node --test tests/js/unit-axis.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { TYPES } from './reference.mjs';
import { isFloatType, randomTensor } from './values.mjs';

const seed = seedFromEnvironment(Date.now() % 2 ** 31);

test(`ArgMax, ArgMin and Hardmax over an axis of one element match the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (const type of ['float32', 'float16', 'bfloat16', 'float64', 'uint8', 'int8', 'int32', 'int64']) {
    const size = TYPES[type].array.BYTES_PER_ELEMENT;
    const n = Math.round(300000 / size / 3) + rng.int(17); // past one staging buffer (256 KiB)
    const shapes = [[[n, 1, 3], 1], [[3, n, 1], 2], [[1, 3 * n], 0], [[2, 1, 5, 7], 1], [[1], 0], [[4, 1], -1]];
    for (const [dims, axis] of shapes) {
      const x = randomTensor(rng, type, dims);
      const where = `${type} [${dims}] axis ${axis}`;
      for (const op of ['ArgMax', 'ArgMin']) {
        const attrs = { axis, keepdims: rng.pick([0, 1]), select_last_index: rng.pick([0, 1]) };
        checkAgainstReference(runNode, op, [x], attrs, 13, `${op} ${where} ${JSON.stringify(attrs)}`);
      }
      if (isFloatType(type)) checkAgainstReference(runNode, 'Hardmax', [x], { axis }, 13, `Hardmax ${where}`);
    }
  }
});
