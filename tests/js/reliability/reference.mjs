// A deliberately simple JS reference for the reliability tests (hostile, soak): its own version
// table, its own float16/bfloat16 decoding and plain N-d loops. Written from api.md; it shares no
// code with js/ or src/.

const ALL_NUMERIC = ['float32', 'float64', 'float16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
const REDUCE_1 = ['float32', 'float64', 'float16', 'int32', 'int64', 'uint32', 'uint64'];
const REDUCE_12 = [...REDUCE_1, 'int8', 'uint8'];
const REDUCE_13 = [...REDUCE_12, 'bfloat16'];
const HARD = ['float16', 'float32', 'float64'];

/** Every version of every operator: since, types, attributes (name -> 'int' | 'flag' | 'ints'). */
export const VERSIONS = {
  ArgMax: argVersions(),
  ArgMin: argVersions(),
  ReduceMax: [
    { since: 1, types: REDUCE_1, attrs: { axes: 'ints', keepdims: 'flag' }, inputs: 1 },
    { since: 11, types: REDUCE_1, attrs: { axes: 'ints', keepdims: 'flag' }, inputs: 1 },
    { since: 12, types: REDUCE_12, attrs: { axes: 'ints', keepdims: 'flag' }, inputs: 1 },
    { since: 13, types: REDUCE_13, attrs: { axes: 'ints', keepdims: 'flag' }, inputs: 1 },
    { since: 18, types: REDUCE_13, attrs: { keepdims: 'flag', noop_with_empty_axes: 'flag' }, inputs: 2 },
    { since: 20, types: [...REDUCE_13, 'bool'], attrs: { keepdims: 'flag', noop_with_empty_axes: 'flag' }, inputs: 2 },
  ],
  Hardmax: [
    { since: 1, types: HARD, attrs: { axis: 'int' }, inputs: 1, axisDefault: 1 },
    { since: 11, types: HARD, attrs: { axis: 'int' }, inputs: 1, axisDefault: 1 },
    { since: 13, types: [...HARD, 'bfloat16'], attrs: { axis: 'int' }, inputs: 1, axisDefault: -1 },
  ],
};

function argVersions() {
  const old = { axis: 'int', keepdims: 'flag' };
  const last = { ...old, select_last_index: 'flag' };
  return [
    { since: 1, types: ALL_NUMERIC, attrs: old, inputs: 1 },
    { since: 11, types: ALL_NUMERIC, attrs: old, inputs: 1 },
    { since: 12, types: ALL_NUMERIC, attrs: last, inputs: 1 },
    { since: 13, types: [...ALL_NUMERIC, 'bfloat16'], attrs: last, inputs: 1 },
  ];
}

export const OPS = Object.keys(VERSIONS);

/** The version an opset selects (undefined: the newest), or undefined if the opset is invalid. */
export function versionFor(op, opset) {
  const list = VERSIONS[op];
  if (opset === undefined) return list[list.length - 1];
  const n = typeof opset === 'bigint' ? Number(opset) : opset;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return undefined;
  return list.filter((v) => v.since <= n).pop();
}

/** The typed-array class of each type. */
export const ARRAY = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array,
  uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array,
};

function halfValue(bits, exponentBits, mantissaBits) {
  const bias = 2 ** (exponentBits - 1) - 1;
  const exponent = (bits >> mantissaBits) & (2 ** exponentBits - 1);
  const mantissa = bits & (2 ** mantissaBits - 1);
  const sign = bits & 0x8000 ? -1 : 1;
  if (exponent === 2 ** exponentBits - 1) return mantissa ? NaN : sign * Infinity;
  if (exponent === 0) return sign * mantissa * 2 ** (1 - bias - mantissaBits);
  return sign * (2 ** mantissaBits + mantissa) * 2 ** (exponent - bias - mantissaBits);
}

/** An element as a comparable value: a number (NaN possible) or a BigInt. */
export function valueOf(type, raw) {
  if (type === 'float16') return halfValue(raw, 5, 10);
  if (type === 'bfloat16') return halfValue(raw, 8, 7);
  if (type === 'bool') return raw ? 1 : 0;
  return raw;
}

const isNaNValue = (v) => typeof v === 'number' && Number.isNaN(v);

function lowest(type) {
  switch (type) {
    case 'int8': return -128;
    case 'int16': return -32768;
    case 'int32': return -2147483648;
    case 'int64': return -(2n ** 63n);
    case 'uint64': return 0n;
    case 'uint8': case 'uint16': case 'uint32': case 'bool': return 0;
    default: return -Infinity;
  }
}

function product(dims, from = 0, to = dims.length) {
  let p = 1;
  for (let d = from; d < to; d += 1) p *= dims[d];
  return p;
}

// Index of the winner among n values: NaN wins (first, or last with `last`); otherwise the best,
// first of the ties unless `last`.
function winner(n, get, maximum, last) {
  let nanAt = -1;
  for (let j = 0; j < n; j += 1) if (isNaNValue(get(j)) && (nanAt < 0 || last)) nanAt = j;
  if (nanAt >= 0) return nanAt;
  let at = 0;
  for (let j = 1; j < n; j += 1) {
    const a = get(j);
    const b = get(at);
    if ((maximum ? a > b : a < b) || (last && a == b)) at = j; // == : -0 ties +0, bigints compare
  }
  return at;
}

const normalize = (axis, rank) => (axis < 0 ? axis + rank : axis);

/**
 * The expected output of a VALID call: { type, dims, values } where values are comparable values
 * (BigInt indices for ArgMax/ArgMin). `axes` is the list of axes (any version) or undefined.
 */
export function expected(op, since, x, attrs = {}) {
  const { type, dims } = x;
  const values = Array.from(x.data, (raw) => valueOf(type, raw));
  const rank = dims.length;
  const keep = attrs.keepdims === undefined ? true : Number(attrs.keepdims) !== 0;
  if (op === 'ArgMax' || op === 'ArgMin') {
    const axis = normalize(Number(attrs.axis ?? 0), rank);
    const [outer, n, inner] = [product(dims, 0, axis), dims[axis], product(dims, axis + 1)];
    const last = Number(attrs.select_last_index ?? 0) !== 0;
    const out = [];
    for (let o = 0; o < outer; o += 1)
      for (let i = 0; i < inner; i += 1)
        out.push(BigInt(winner(n, (j) => values[(o * n + j) * inner + i], op === 'ArgMax', last)));
    const outDims = dims.flatMap((d, k) => (k !== axis ? [d] : keep ? [1] : []));
    return { type: 'int64', dims: outDims, values: out };
  }
  if (op === 'Hardmax') {
    const version = VERSIONS.Hardmax.find((v) => v.since === since);
    const axis = normalize(Number(attrs.axis ?? version.axisDefault), rank);
    const coerce = since < 13;
    const [outer, n, inner] = coerce
      ? [product(dims, 0, axis), product(dims, axis), 1]
      : [product(dims, 0, axis), dims[axis], product(dims, axis + 1)];
    const out = new Array(values.length).fill(0);
    if (values.length > 0)
      for (let o = 0; o < outer; o += 1)
        for (let i = 0; i < inner; i += 1) {
          const w = winner(n, (j) => values[(o * n + j) * inner + i], true, false);
          out[(o * n + w) * inner + i] = 1;
        }
    return { type, dims: [...dims], values: out };
  }
  // ReduceMax
  const axes = attrs.axes === undefined ? [] : Array.from(attrs.axes, (a) => normalize(Number(a), rank));
  if (axes.length === 0 && since >= 18 && Number(attrs.noop_with_empty_axes ?? 0) !== 0)
    return { type, dims: [...dims], values };
  const reduced = dims.map((_, d) => axes.length === 0 || axes.includes(d));
  const outDims = dims.flatMap((d, k) => (!reduced[k] ? [d] : keep ? [1] : []));
  const keptDims = dims.filter((_, k) => !reduced[k]);
  const out = new Array(product(keptDims)).fill(lowest(type));
  const seen = new Array(out.length).fill(false);
  for (let e = 0; e < values.length; e += 1) {
    let rest = e;
    let o = 0;
    let scale = 1;
    for (let d = rank - 1; d >= 0; d -= 1) {
      const coord = rest % dims[d];
      rest = Math.floor(rest / dims[d]);
      if (!reduced[d]) {
        o += coord * scale;
        scale *= dims[d];
      }
    }
    const v = values[e];
    if (!seen[o]) {
      out[o] = v;
      seen[o] = true;
    } else if (!isNaNValue(out[o]) && (isNaNValue(v) || v > out[o])) out[o] = v;
  }
  return { type, dims: outDims, values: out };
}

/** Null when `got` (a returned tensor) matches `want`; else a description of the first difference. */
export function difference(got, want) {
  if (got === null || typeof got !== 'object') return `result is ${String(got)}`;
  if (got.type !== want.type) return `type ${got.type}, want ${want.type}`;
  if (!Array.isArray(got.dims) || got.dims.length !== want.dims.length || got.dims.some((d, k) => d !== want.dims[k]))
    return `dims ${JSON.stringify(got.dims)}, want ${JSON.stringify(want.dims)}`;
  if (!(got.data instanceof ARRAY[want.type]) && !(want.type === 'float16' && ArrayBuffer.isView(got.data)))
    return `data is ${got.data?.constructor?.name}, want ${ARRAY[want.type].name}`;
  if (got.data.length !== want.values.length) return `length ${got.data.length}, want ${want.values.length}`;
  for (let k = 0; k < want.values.length; k += 1) {
    const g = valueOf(want.type, got.data[k]);
    const w = want.values[k];
    const same = isNaNValue(w) ? isNaNValue(g) : g == w && typeof g === typeof w; // -0 == +0
    if (!same) return `element ${k}: ${String(g)}, want ${String(w)}`;
  }
  return null;
}
