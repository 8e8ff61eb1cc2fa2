// Random valid calls of every operator, version and type (small tensors, some larger), for the
// hostile test's "still right afterwards" checks and for the soak. Each call knows how to run
// itself through the public API and what the reference expects.
import { prng } from '../helpers.mjs';
import { ARRAY, OPS, VERSIONS, difference, expected } from './reference.mjs';

/** The seeded PRNG of tests/js/helpers.mjs in the callable form the workload uses: r(), r.int(lo, hi), r.pick(list). */
export function rng(seed) {
  const p = prng(seed);
  const next = () => p.next();
  next.int = p.range;
  next.pick = p.pick;
  return next;
}

// Element pools: ties, both zeros, infinities, NaN, extremes.
const POOLS = {
  float32: [0, -0, 1, -1, 2, 0.5, Infinity, -Infinity, NaN, 3.4e38, -3.4e38, 1e-45, 3],
  float64: [0, -0, 1, -1, 2, 0.5, Infinity, -Infinity, NaN, 1.7e308, -1.7e308, 5e-324, 3],
  float16: [0x0000, 0x8000, 0x3c00, 0xbc00, 0x4000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x7bff, 0xfbff],
  bfloat16: [0x0000, 0x8000, 0x3f80, 0xbf80, 0x4000, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x0001, 0x7f7f, 0xff7f],
  int8: [0, 1, -1, 2, 127, -128, 126, -127],
  uint8: [0, 1, 2, 255, 254, 128],
  int16: [0, 1, -1, 2, 32767, -32768],
  uint16: [0, 1, 2, 65535, 32768],
  int32: [0, 1, -1, 2, 2147483647, -2147483648],
  uint32: [0, 1, 2, 4294967295, 2147483648],
  int64: [0n, 1n, -1n, 2n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n],
  uint64: [0n, 1n, 2n, 2n ** 64n - 1n, 2n ** 63n, 2n ** 53n + 1n],
  bool: [0, 1],
};

export function randomData(r, type, n) {
  const data = new ARRAY[type](n);
  const pool = POOLS[type];
  const span = r.int(2, pool.length); // a short pool gives many ties
  for (let i = 0; i < n; i += 1) data[i] = pool[r.int(0, span - 1)];
  return data;
}

function randomDims(r, size) {
  if (size === 'large' || size === 'huge') {
    const total = size === 'huge' ? r.pick([1 << 20, (1 << 20) + 3]) : r.pick([1000, 4096, 20000, 65537]);
    const rank = r.int(1, 3);
    const dims = new Array(rank).fill(1);
    dims[r.int(0, rank - 1)] = total;
    if (rank > 1 && r() < 0.5) {
      dims[0] = r.pick([2, 3, 7]);
    }
    return dims;
  }
  const rank = r.int(0, 4);
  return Array.from({ length: rank }, () => (r() < 0.08 ? 0 : r.int(1, 4)));
}

/**
 * A random valid call: { op, since, opset, x, attrs, run(api) -> Tensor, runOn(api, input) (the
 * same call on another input of x's type and dims, such as a wasmTensor), want }.
 * `size` 'small' (default: rank 0-4, dims 0-4), 'large' (1000-65537 elements: the input crosses
 * the 256 KiB staging buffer) or 'huge' (about 2^20 elements).
 */
export function randomCall(r, size = 'small') {
  for (;;) {
    const op = r.pick(OPS);
    const version = r.pick(VERSIONS[op]);
    const type = r.pick(version.types);
    const dims = randomDims(r, size);
    const rank = dims.length;
    const n = dims.reduce((a, b) => a * b, 1);
    const attrs = {};
    if (op === 'ReduceMax') {
      if (r() < 0.7) {
        const axes = [...Array(rank).keys()].filter(() => r() < 0.5).map((a) => (r() < 0.3 ? a - rank : a));
        attrs.axes = axes;
      }
      if (r() < 0.5) attrs.keepdims = r.pick([0, 1, true, false]);
      if (version.since >= 18 && r() < 0.3) attrs.noop_with_empty_axes = r.pick([0, 1]);
    } else {
      if (rank === 0) continue; // ArgMax/ArgMin/Hardmax of a scalar is an error
      const axis = r.int(0, rank - 1);
      if (op !== 'Hardmax' && dims[axis] === 0) continue; // ArgMax over an empty axis is an error
      if (op !== 'Hardmax' || version.since < 13 || r() < 0.9) attrs.axis = r() < 0.3 ? axis - rank : axis;
      if (op !== 'Hardmax') {
        if (r() < 0.5) attrs.keepdims = r.pick([0, 1, true, false]);
        if (version.since >= 12 && r() < 0.5) attrs.select_last_index = r.pick([0, 1, true, false]);
      }
    }
    const x = { type, data: randomData(r, type, n), dims };
    const list = VERSIONS[op];
    const next = list[list.indexOf(version) + 1]?.since ?? version.since + 10;
    const opset = version === list.at(-1) && r() < 0.3 ? undefined : r.int(version.since, next - 1);
    const friendly = r() < 0.5;
    const want = expected(op, version.since, x, attrs);
    const runOn = (api, input) => runCall(api, op, version.since, opset, input, attrs, friendly);
    return { op, since: version.since, opset, x, attrs, friendly, want, runOn, run: (api) => runOn(api, x) };
  }
}

function runCall(api, op, since, opset, x, attrs, friendly) {
  if (friendly) {
    const fn = { ArgMax: api.argMax, ArgMin: api.argMin, ReduceMax: api.reduceMax, Hardmax: api.hardmax }[op];
    return fn(x, attrs, opset === undefined ? undefined : { opset });
  }
  if (op === 'ReduceMax' && since >= 18) {
    const { axes, ...rest } = attrs;
    const axesTensor = axes === undefined ? null : { type: 'int64', data: BigInt64Array.from(axes, BigInt), dims: [axes.length] };
    return api.runNode(op, axesTensor ? [x, axesTensor] : [x], rest, opset)[0];
  }
  return api.runNode(op, [x], attrs, opset)[0];
}

/**
 * Runs a call (on `input` in place of its own x: a wasmTensor of the same data) and returns null
 * when its result matches the reference, else a description.
 */
export function verify(api, call, input = call.x) {
  let got;
  try {
    got = call.runOn(api, input);
  } catch (error) {
    return `threw ${error?.message ?? error}`;
  }
  const d = difference(got, call.want);
  return d && `${call.op} v${call.since} ${call.x.type} dims ${JSON.stringify(call.x.dims)} ${JSON.stringify(call.attrs, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))}: ${d}`;
}
