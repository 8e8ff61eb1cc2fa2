// A deliberately plain reference: an odometer over every element, numbers compared with > / <,
// NaN winning, the first index on ties (the last with select_last_index). Every runtime's output
// is checked against it.

function toNumber(type) {
  if (type === 'float16')
    return (b) => {
      const e = (b >> 10) & 0x1f, m = b & 0x3ff, s = b & 0x8000 ? -1 : 1;
      if (e === 31) return m ? NaN : s * Infinity;
      return e === 0 ? s * m * 2 ** -24 : s * (1 + m / 1024) * 2 ** (e - 15);
    };
  if (type === 'bfloat16') {
    const f = new Float32Array(1), u = new Uint32Array(f.buffer);
    return (b) => ((u[0] = b << 16), f[0]);
  }
  return (v) => v;
}

const better = (op) => (op === 'ArgMin' ? (a, b) => a < b : (a, b) => a > b);

/**
 * Output values of case `c` on `x` as a plain Array: indices for ArgMax/ArgMin, the input's own
 * values (bits for float16/bfloat16) for ReduceMax and Hardmax.
 */
export function reference(c, x) {
  const dims = c.dims, rank = dims.length;
  const norm = (a) => (a < 0 ? a + rank : a);
  const reducedAxes = c.op === 'ReduceMax' ? (c.axes ?? dims.map((_, d) => d)).map(norm) : [norm(c.attrs.axis ?? (c.op === 'Hardmax' ? -1 : 0))];
  const reduced = dims.map((_, d) => reducedAxes.includes(d));
  // Output strides over the kept axes (reduced axes contribute nothing).
  const outStride = new Array(rank).fill(0);
  let outCount = 1;
  for (let d = rank - 1; d >= 0; d -= 1) if (!reduced[d]) (outStride[d] = outCount), (outCount *= dims[d]);
  const num = toNumber(c.type);
  const gt = better(c.op);
  const best = new Array(outCount).fill(undefined);
  const bestAt = new Array(outCount).fill(-1);
  const at = new Array(rank).fill(0);
  const axis = reducedAxes[0];
  const last = c.attrs?.select_last_index === 1;
  for (let i = 0; i < c.count; i += 1) {
    let o = 0;
    for (let d = 0; d < rank; d += 1) o += at[d] * outStride[d];
    const v = num(x[i]);
    const b = best[o];
    // ReduceMax: a NaN, or a greater value. Arg kinds: a NaN wins (the first, or with `last` the
    // last), then the better value, then (with `last`) an equal later one.
    const argReplaces = Number.isNaN(b) ? last && Number.isNaN(v) : Number.isNaN(v) || gt(v, b) || (last && v === b);
    const replace = b === undefined || (c.op === 'ReduceMax' ? Number.isNaN(v) || (!Number.isNaN(b) && v > b) : argReplaces);
    if (replace) (best[o] = v), (bestAt[o] = c.op === 'ReduceMax' ? i : at[axis]);
    for (let d = rank - 1; d >= 0; d -= 1) {
      if (++at[d] < dims[d]) break;
      at[d] = 0;
    }
  }
  if (c.op === 'ArgMax' || c.op === 'ArgMin') return bestAt;
  if (c.op === 'ReduceMax') return bestAt.map((i) => (c.type === 'float16' || c.type === 'bfloat16' ? x[i] : num(x[i])));
  // Hardmax: one at the winning index along the axis, 0 elsewhere (in the type's bits).
  const one = c.type === 'float16' ? 0x3c00 : c.type === 'bfloat16' ? 0x3f80 : 1;
  const out = new Array(c.count).fill(0);
  const axisStride = dims.slice(axis + 1).reduce((a, b) => a * b, 1);
  at.fill(0);
  for (let i = 0; i < c.count; i += 1) {
    let o = 0;
    for (let d = 0; d < rank; d += 1) o += at[d] * outStride[d];
    if (at[axis] === 0) out[i + bestAt[o] * axisStride] = one;
    for (let d = rank - 1; d >= 0; d -= 1) {
      if (++at[d] < dims[d]) break;
      at[d] = 0;
    }
  }
  return out;
}

/** null when `got` (a typed array or Array) holds the reference values, else what differs. */
export function compare(expected, got) {
  if (!got || got.length !== expected.length) return `length ${got?.length} instead of ${expected.length}`;
  let bad = 0, first = -1;
  for (let i = 0; i < expected.length; i += 1) {
    // int64 values (ReduceMax) compare as BigInt; indices as numbers
    const g = typeof got[i] === 'bigint' && typeof expected[i] !== 'bigint' ? Number(got[i]) : got[i];
    if (!Object.is(g, expected[i]) && !(g === 0 && expected[i] === 0)) {
      if (first < 0) first = i;
      bad += 1;
    }
  }
  return bad ? `${bad} of ${expected.length} differ, first at ${first}: got ${got[first]}, expected ${expected[first]}` : null;
}
