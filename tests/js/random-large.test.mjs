// Seeded random differential runs on mid-size and large tensors (up to 600,000 elements), against
// the reference: random shapes of rank 1-4 (short rows, narrow and wide columns, middle axes, long
// rows; several staging chunks), every operator, version and type the version takes, random axes
// and attributes. Values are mostly distinct (random numbers of the type, now and then from a
// range of six so that ties abound), with a few of the type's edge values (NaN, ±0, ±inf, extremes)
// planted at random places: the SIMD kernels' fast ways and their guards' fallbacks both run, at
// positions no hand-picked case chose. random.test.mjs does the same for tensors of at most 1,500
// elements, where every call takes the portable loops.
// Replay a failure with OX_SEED=<seed> node --test tests/js/random-large.test.mjs
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng, seedFromEnvironment } from './helpers.mjs';
import { OPS, OP_NAMES, TYPES, versionsOf } from './reference.mjs';
import { POOLS } from './values.mjs';

const CASES = 120;
const MAX_ELEMENTS = 600000;

// A random value of `type` as stored in its typed array (16-bit floats as bits): finite; with
// `narrow`, one of six (16-bit floats: six small magnitudes of either sign), so ties abound.
function randomValue(rng, type, narrow) {
  const { family, array } = TYPES[type];
  if (type === 'bool') return rng.int(2);
  if (family === 'float16' || family === 'bfloat16') {
    const all = family === 'float16' ? 0x7c00 : 0x7f80; // exponent bits
    const bits = narrow ? (rng.int(6) << 8) | (rng.chance(0.5) ? 0x8000 : 0) : rng.int(65536);
    return (bits & all) === all ? bits & ~0x4000 : bits; // no inf or NaN: exponent lowered
  }
  if (family === 'float') {
    const v = narrow ? rng.range(-3, 2) : Math.round((rng.next() - 0.5) * 2e6) / 1000; // three decimals
    return type === 'float32' ? Math.fround(v) : v;
  }
  const span = narrow ? 6 : 1e9; // wider than 8- and 16-bit types: their arrays wrap it
  const v = rng.int(span) - (type.startsWith('u') ? 0 : span / 2);
  return array === BigInt64Array || array === BigUint64Array ? BigInt(v) * 7919n : v;
}

// Rank 1-4, dims from 1-9 (short rows, narrow columns), 10-100 or 100-5000, in any order; the
// last dim takes what is left of the element count.
function randomDims(rng) {
  const total = rng.chance(0.5) ? rng.range(1000, 100000) : rng.range(100000, MAX_ELEMENTS);
  const rank = rng.range(1, 4);
  const dims = [];
  let left = total;
  for (let k = 0; k < rank - 1; k += 1) {
    const d = rng.chance(0.4) ? rng.range(1, 9) : rng.chance(0.5) ? rng.range(10, 100) : rng.range(100, 5000);
    dims.push(Math.min(d, left));
    left = Math.max(1, Math.floor(left / dims[k]));
  }
  dims.push(left);
  for (let i = dims.length - 1; i > 0; i -= 1) {
    const j = rng.int(i + 1);
    [dims[i], dims[j]] = [dims[j], dims[i]];
  }
  return dims;
}

function randomCall(rng) {
  const op = rng.pick(OP_NAMES);
  const version = rng.pick(versionsOf(op));
  const { attrs: known, types, kind } = OPS[op][version];
  const type = rng.pick(types);
  const dims = randomDims(rng);
  const count = dims.reduce((p, d) => p * d, 1);
  const data = new TYPES[type].array(count);
  const narrow = rng.chance(0.2);
  for (let i = 0; i < count; i += 1) data[i] = randomValue(rng, type, narrow);
  const plants = rng.chance(0.5) ? rng.range(1, 5) : 0;
  for (let p = 0; p < plants; p += 1) data[rng.int(count)] = rng.pick(POOLS[type]);
  const rank = dims.length;
  const inputs = [{ type, data, dims }];
  const attrs = {};
  if (op === 'ReduceMax') {
    const axes = [...new Set(Array.from({ length: rng.range(1, rank) }, () => rng.range(-rank, rank - 1)))];
    if (kind === 'reduce-input') inputs.push({ type: 'int64', data: BigInt64Array.from(axes, BigInt), dims: [axes.length] });
    else attrs.axes = axes;
  } else {
    attrs.axis = rng.range(-rank, rank - 1);
  }
  if ('keepdims' in known) attrs.keepdims = rng.pick([0, 1]);
  if ('select_last_index' in known) attrs.select_last_index = rng.pick([0, 1]);
  const where = `${op}-${version} ${type} ${JSON.stringify(dims)} ${JSON.stringify(attrs)}${narrow ? ' narrow' : ''}, ${plants} planted`;
  return { op, version, inputs, attrs, where };
}

const seed = seedFromEnvironment(Date.now() % 2 ** 31);

test(`mid-size and large tensors of random shapes match the reference (seed ${seed})`, async () => {
  await init();
  const rng = prng(seed);
  for (let k = 0; k < CASES; k += 1) {
    const { op, version, inputs, attrs, where } = randomCall(rng);
    checkAgainstReference(runNode, op, inputs, attrs, version, `case ${k}: ${where}`);
  }
});
