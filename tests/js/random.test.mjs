// Seeded random differential runs against the reference: ranks 0-5, dims 0-6, random axes
// (negative, repeated, out of range), attributes, dtypes, opsets 1-21 and default, values drawn
// from small pools so ties, NaNs, ±0 and ±inf are likely. Each call must give the reference's
// answer, or throw when the reference says the call is invalid.
// Replay a failure with OX_SEED=<seed> node --test tests/js/random.test.mjs
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng } from './helpers.mjs';
import { OPS, OP_NAMES, TYPE_NAMES, resolveVersion } from './reference.mjs';
import { POOLS, numbersOf, randomTensor } from './values.mjs';

const CASES_PER_SEED = 4000;
const MAX_ELEMENTS = 1500;

const seeds = process.env.OX_SEED ? [Number(process.env.OX_SEED)] : [1, 2, 3, Date.now() % 2 ** 31];

const pickFlag = (rng) => rng.pick([0, 1, true, false]);
const randomAxis = (rng, rank) => rng.range(-rank - 1, rank); // one step past each end is out of range

function randomDims(rng) {
  for (;;) {
    const rank = rng.range(0, 5);
    const dims = Array.from({ length: rank }, () => (rng.chance(0.08) ? 0 : rng.range(1, 6)));
    if (dims.reduce((p, d) => p * d, 1) <= MAX_ELEMENTS) return dims;
  }
}

function randomCase(rng) {
  const op = rng.pick(OP_NAMES);
  const opset = rng.chance(0.1) ? undefined : rng.range(1, 21);
  // Mostly a type the version accepts; any of the 13 a quarter of the time.
  const version = resolveVersion(op, opset);
  const type = rng.chance(0.75) && version !== null ? rng.pick(OPS[op][version].types) : rng.pick(TYPE_NAMES);
  const dims = randomDims(rng);
  const rank = dims.length;
  // Half the time without NaN, so not every ArgMax answer is the first NaN.
  const pool = rng.chance(0.5) ? numbersOf(type) : POOLS[type];
  // A smaller pool makes ties likelier still.
  const x = randomTensor(rng, type, dims, rng.chance(0.3) ? pool.slice(0, 3) : pool);
  const attrs = {};
  const inputs = [x];
  const axesInput = opset === undefined || opset >= 18;
  if (op === 'ReduceMax') {
    const axes = rng.chance(0.25) ? undefined : Array.from({ length: rng.range(0, rank + 1) }, () => (rng.chance(0.9) ? rng.range(-rank, rank - 1) : randomAxis(rng, rank)));
    if (axes !== undefined) {
      // The right form for the version nine times in ten.
      if (axesInput !== rng.chance(0.1)) inputs.push({ type: 'int64', data: BigInt64Array.from(axes, BigInt), dims: [axes.length] });
      else attrs.axes = axes;
    } else if (axesInput && rng.chance(0.2)) inputs.push(null);
    if (rng.chance(axesInput ? 0.4 : 0.05)) attrs.noop_with_empty_axes = pickFlag(rng);
  } else {
    if (rng.chance(0.85)) attrs.axis = rng.chance(0.9) ? rng.range(-rank, Math.max(rank - 1, -rank)) : randomAxis(rng, rank);
    if (op !== 'Hardmax') {
      if (rng.chance(0.6)) attrs.keepdims = pickFlag(rng);
      if (rng.chance(version >= 12 ? 0.5 : 0.1)) attrs.select_last_index = pickFlag(rng);
    }
  }
  if (op === 'ReduceMax' && rng.chance(0.6)) attrs.keepdims = pickFlag(rng);
  if (rng.chance(0.02)) attrs[rng.pick(['axis', 'axes', 'keepdims', 'select_last_index', 'noop_with_empty_axes', 'bogus'])] = rng.pick([1, [0], -1]);
  return { op, inputs, attrs, opset };
}

// Shapes that reach SIMD kernels' tiles and tails: [outer, reduce, inner] with reduced axes of 1 to
// 70 elements (below, at and above every vector width) and inner widths 1 to 20.
function kernelCase(rng) {
  const op = rng.pick(OP_NAMES);
  const version = rng.pick([1, 11, 12, 13, 18, 20].filter((v) => v in OPS[op]));
  const type = rng.pick(OPS[op][version].types);
  const dims = [rng.range(1, 4), rng.range(1, 70), rng.chance(0.5) ? 1 : rng.range(1, 20)];
  const x = randomTensor(rng, type, dims, rng.chance(0.7) ? POOLS[type].filter((v) => v === v) : POOLS[type]);
  if (op === 'ReduceMax') {
    const axes = rng.pick([[1], [1, 2], [0, 1], [2]]);
    return version >= 18 ? { op, inputs: [x, { type: 'int64', data: BigInt64Array.from(axes, BigInt), dims: [axes.length] }], attrs: {}, opset: version } : { op, inputs: [x], attrs: { axes }, opset: version };
  }
  const attrs = { axis: op === 'Hardmax' && version < 13 ? rng.pick([1, 2]) : 1 };
  if (op !== 'Hardmax' && version >= 12) attrs.select_last_index = rng.int(2);
  return { op, inputs: [x], attrs, opset: version };
}

test('random kernel-shaped runs: reduced axes of 1 to 70 elements, inner widths 1 to 20', async () => {
  await init();
  const seed = seeds[seeds.length - 1];
  const rng = prng(seed);
  for (let n = 0; n < 3000; n += 1) {
    const c = kernelCase(rng);
    const where = `seed ${seed} kernel case ${n}: ${c.op} ${c.opset} ${c.inputs[0].type} ${JSON.stringify(c.inputs[0].dims)} ${JSON.stringify(c.attrs)}`;
    assert.ok(checkAgainstReference(runNode, c.op, c.inputs, c.attrs, c.opset, where).ok, where);
  }
});

for (const seed of seeds) {
  test(`random differential run, seed ${seed}`, async () => {
    await init();
    const rng = prng(seed);
    const outcomes = { ok: 0 };
    for (let n = 0; n < CASES_PER_SEED; n += 1) {
      const c = randomCase(rng);
      const where = `seed ${seed} case ${n}: ${c.op} opset ${c.opset} ${c.inputs[0].type} dims ${JSON.stringify(c.inputs[0].dims)} attrs ${JSON.stringify(c.attrs)}${c.inputs.length > 1 ? ` axes input ${c.inputs[1] ? JSON.stringify(Array.from(c.inputs[1].data, Number)) : 'null'}` : ''}`;
      const verdict = checkAgainstReference(runNode, c.op, c.inputs, c.attrs, c.opset, where);
      const key = verdict.ok ? 'ok' : verdict.kind;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    // Enough valid calls and the main error kinds, or the generator has drifted.
    assert.ok(outcomes.ok > CASES_PER_SEED * 0.4, JSON.stringify(outcomes));
    for (const kind of ['type', 'axis', 'repeated-axis', 'empty-axis', 'attr-later'])
      assert.ok(outcomes[kind] > 0, `no ${kind} case: ${JSON.stringify(outcomes)}`);
  });
}
