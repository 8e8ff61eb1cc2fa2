// The independent reference the wasm build is tested against: deliberately simple N-d index loops
// over the whole tensor, written from the spec text (/work/shared/spec/*.rst) and api.md. It imports
// nothing from js/ or src/: its own dtype table, its own float16/bfloat16 decoding, its own version
// table. Besides results it predicts which calls must fail and why (`{ ok: false, kind, ... }`).

// ---- dtypes ----------------------------------------------------------------------------------

/** name -> { array: the typed-array class api.md names, family: how values are read and compared } */
export const TYPES = Object.freeze({
  float32: { array: Float32Array, family: 'float' },
  float64: { array: Float64Array, family: 'float' },
  float16: { array: Uint16Array, family: 'float16' },
  bfloat16: { array: Uint16Array, family: 'bfloat16' },
  int8: { array: Int8Array, family: 'int', min: -128 },
  uint8: { array: Uint8Array, family: 'int', min: 0 },
  int16: { array: Int16Array, family: 'int', min: -32768 },
  uint16: { array: Uint16Array, family: 'int', min: 0 },
  int32: { array: Int32Array, family: 'int', min: -2147483648 },
  uint32: { array: Uint32Array, family: 'int', min: 0 },
  int64: { array: BigInt64Array, family: 'int', min: -(2n ** 63n) },
  uint64: { array: BigUint64Array, family: 'int', min: 0n },
  bool: { array: Uint8Array, family: 'bool', min: 0 },
});
export const TYPE_NAMES = Object.freeze(Object.keys(TYPES));

/** The number that IEEE binary16 bits stand for: sign, 5 exponent bits (bias 15), 10 fraction bits. */
export function float16Value(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  return sign * (1024 + fraction) * 2 ** (exponent - 25);
}

// bfloat16 is the top half of a float32: decode by reinterpreting the bits as one.
const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);
/** The number that bfloat16 bits stand for. */
export function bfloat16Value(bits) {
  u32Scratch[0] = (bits & 0xffff) << 16;
  return f32Scratch[0];
}

/** The comparable values of a tensor: numbers (NaN possible), BigInts for 64-bit integers. */
function decodeAll(type, data) {
  switch (TYPES[type].family) {
    case 'float16':
      return decodeEach(data, float16Value);
    case 'bfloat16':
      return decodeEach(data, bfloat16Value);
    default:
      return data; // numbers; BigInt for int64/uint64 (compared exactly); bool 0/1
  }
}

// (A plain loop: Float64Array.from(data, decode) took 45% of middle-axis-max.test.mjs's time.)
function decodeEach(bits, decode) {
  const values = new Float64Array(bits.length);
  for (let i = 0; i < bits.length; i += 1) values[i] = decode(bits[i]);
  return values;
}

const isNaNValue = (v) => typeof v === 'number' && v !== v;

// Output element encodings that are not the input's own bits.
const LOWEST_BITS = { float16: 0xfc00, bfloat16: 0xff80 }; // -Infinity
const ONE_BITS = { float16: 0x3c00, bfloat16: 0x3f80 };

function lowestStored(type) {
  const info = TYPES[type];
  if (info.family === 'float') return -Infinity;
  if (info.family in LOWEST_BITS) return LOWEST_BITS[info.family];
  return info.min;
}

// ---- versions (from the spec's "since_version" sections and api.md) ---------------------------

const ARG_TYPES_1 = ['float16', 'float32', 'float64', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'];
const REDUCE_TYPES_1 = ['float16', 'float32', 'float64', 'int32', 'int64', 'uint32', 'uint64'];
const REDUCE_TYPES_12 = [...REDUCE_TYPES_1, 'int8', 'uint8'];
const HARDMAX_TYPES_1 = ['float16', 'float32', 'float64'];

const argVersions = () => ({
  1: { attrs: { axis: ['int', 0], keepdims: ['flag', 1] }, types: ARG_TYPES_1, inputs: 1, kind: 'arg' },
  11: { attrs: { axis: ['int', 0], keepdims: ['flag', 1] }, types: ARG_TYPES_1, inputs: 1, kind: 'arg' },
  12: { attrs: { axis: ['int', 0], keepdims: ['flag', 1], select_last_index: ['flag', 0] }, types: ARG_TYPES_1, inputs: 1, kind: 'arg' },
  13: { attrs: { axis: ['int', 0], keepdims: ['flag', 1], select_last_index: ['flag', 0] }, types: [...ARG_TYPES_1, 'bfloat16'], inputs: 1, kind: 'arg' },
});

const reduceAttr = (types) => ({ attrs: { axes: ['ints'], keepdims: ['flag', 1] }, types, inputs: 1, kind: 'reduce-attr' });
const reduceInput = (types) => ({ attrs: { keepdims: ['flag', 1], noop_with_empty_axes: ['flag', 0] }, types, inputs: 2, kind: 'reduce-input' });

export const OPS = Object.freeze({
  ArgMax: argVersions(),
  ArgMin: argVersions(),
  ReduceMax: {
    1: reduceAttr(REDUCE_TYPES_1),
    11: reduceAttr(REDUCE_TYPES_1),
    12: reduceAttr(REDUCE_TYPES_12),
    13: reduceAttr([...REDUCE_TYPES_12, 'bfloat16']),
    18: reduceInput([...REDUCE_TYPES_12, 'bfloat16']),
    20: reduceInput([...REDUCE_TYPES_12, 'bfloat16', 'bool']),
  },
  Hardmax: {
    1: { attrs: { axis: ['int', 1] }, types: HARDMAX_TYPES_1, inputs: 1, kind: 'hardmax-2d' },
    11: { attrs: { axis: ['int', 1] }, types: HARDMAX_TYPES_1, inputs: 1, kind: 'hardmax-2d' },
    13: { attrs: { axis: ['int', -1] }, types: [...HARDMAX_TYPES_1, 'bfloat16'], inputs: 1, kind: 'hardmax-axis' },
  },
});
export const OP_NAMES = Object.freeze(Object.keys(OPS));
const ALL_ATTRIBUTE_NAMES = ['axis', 'axes', 'keepdims', 'select_last_index', 'noop_with_empty_axes'];

/** The versions of an op, ascending. */
export const versionsOf = (op) => Object.keys(OPS[op]).map(Number).sort((a, b) => a - b);

/** The version a model with this opset uses (undefined -> newest), or null if none. */
export function resolveVersion(op, opset) {
  const versions = versionsOf(op);
  if (opset === undefined) return versions[versions.length - 1];
  let chosen = null;
  for (const v of versions) if (v <= opset) chosen = v;
  return chosen;
}

/** The first version of op that accepts the type, or null if none does. */
export function firstVersionAccepting(op, type) {
  return versionsOf(op).find((v) => OPS[op][v].types.includes(type)) ?? null;
}

/** The first version of op that takes the attribute, or null. */
export function firstVersionWithAttribute(op, name) {
  return versionsOf(op).find((v) => name in OPS[op][v].attrs) ?? null;
}

// ---- index helpers ---------------------------------------------------------------------------

const product = (dims) => dims.reduce((p, d) => p * d, 1);

function stridesOf(dims) {
  const strides = new Array(dims.length);
  let s = 1;
  for (let d = dims.length - 1; d >= 0; d -= 1) {
    strides[d] = s;
    s *= dims[d];
  }
  return strides;
}

/** Calls fn(index) for every multi-index of dims in row-major order (once for rank 0). */
function forEachIndex(dims, fn) {
  if (dims.some((d) => d === 0)) return;
  const index = new Array(dims.length).fill(0);
  for (;;) {
    fn(index);
    let d = dims.length - 1;
    while (d >= 0) {
      index[d] += 1;
      if (index[d] < dims[d]) break;
      index[d] = 0;
      d -= 1;
    }
    if (d < 0) return;
  }
}

const flatOf = (index, strides) => index.reduce((f, i, d) => f + i * strides[d], 0);

// ---- the operators on checked inputs -----------------------------------------------------------

// Whether candidate v replaces best (ArgMax/ArgMin/Hardmax): NaN wins, first NaN unless lastWins.
function replaces(v, best, isMax, lastWins) {
  if (isNaNValue(best)) return lastWins && isNaNValue(v);
  if (isNaNValue(v)) return true;
  if (v == best) return lastWins; // -0 == +0: a tie (== also compares BigInts)
  return isMax ? v > best : v < best;
}

/** Index of the winner along `axis` for each position of keepDims (axis set to 1). */
function winners(x, axis, isMax, lastWins) {
  const strides = stridesOf(x.dims);
  const keepDims = x.dims.map((d, k) => (k === axis ? 1 : d));
  const result = [];
  forEachIndex(keepDims, (index) => {
    const base = flatOf(index, strides); // index[axis] is 0 here
    let best = null;
    let bestK = -1;
    for (let k = 0; k < x.dims[axis]; k += 1) {
      const v = x.values[base + k * strides[axis]];
      if (bestK < 0 || replaces(v, best, isMax, lastWins)) {
        best = v;
        bestK = k;
      }
    }
    result.push(bestK);
  });
  return { keepDims, result };
}

function argExtreme(x, axis, keepdims, isMax, lastWins) {
  const { keepDims, result } = winners(x, axis, isMax, lastWins);
  const dims = keepdims ? keepDims : x.dims.filter((_, k) => k !== axis);
  const data = new BigInt64Array(result.length); // (a loop: BigInt64Array.from with a map function took 10% of engine-window.test.mjs)
  for (let i = 0; i < result.length; i += 1) data[i] = BigInt(result[i]);
  return { type: 'int64', dims, data };
}

function oneHot(x, isOne) {
  const out = new x.data.constructor(x.data.length);
  const family = TYPES[x.type].family;
  const one = family in ONE_BITS ? ONE_BITS[family] : 1;
  for (let i = 0; i < out.length; i += 1) out[i] = isOne(i) ? one : 0;
  return { type: x.type, dims: [...x.dims], data: out };
}

function hardmaxAlongAxis(x, axis) {
  const strides = stridesOf(x.dims);
  const marked = new Set();
  if (x.dims[axis] > 0) {
    const { keepDims, result } = winners(x, axis, true, false);
    let n = 0;
    forEachIndex(keepDims, (index) => {
      const at = [...index];
      at[axis] = result[n++];
      marked.add(flatOf(at, strides));
    });
  }
  return oneHot(x, (i) => marked.has(i));
}

// Hardmax 1 and 11: rows of the [prod(dims[:axis]), prod(dims[axis:])] matrix.
function hardmaxCoerced(x, axis) {
  const rows = product(x.dims.slice(0, axis));
  const width = product(x.dims.slice(axis));
  const marked = new Set();
  for (let r = 0; r < rows && width > 0; r += 1) {
    let best = null;
    let bestK = -1;
    for (let k = 0; k < width; k += 1) {
      const v = x.values[r * width + k];
      if (bestK < 0 || replaces(v, best, true, false)) {
        best = v;
        bestK = k;
      }
    }
    marked.add(r * width + bestK);
  }
  return oneHot(x, (i) => marked.has(i));
}

// reduced: one boolean per axis. `zeroEither` lists outputs whose maximum is a zero that occurs
// with both signs: api.md makes -0 == +0 a tie and fixes no sign for ReduceMax, so either is right.
function reduceMax(x, reduced, keepdims) {
  const strides = stridesOf(x.dims);
  const keepDims = x.dims.map((d, k) => (reduced[k] ? 1 : d));
  const reducedDims = x.dims.map((d, k) => (reduced[k] ? d : 1));
  const family = TYPES[x.type].family;
  // Flat offsets of the reduced sub-box, relative to its corner.
  const offsets = [];
  forEachIndex(reducedDims, (offset) => offsets.push(flatOf(offset, strides)));
  const out = [];
  const zeroEither = [];
  const lowest = lowestStored(x.type); // (the value over an empty set)
  forEachIndex(keepDims, (index) => {
    const corner = flatOf(index, strides); // reduced coordinates are 0 here
    let best = null;
    let bestStored = lowest;
    let sawNaN = false;
    let plusZero = false; // the maximum so far is a zero seen as +0 / as -0
    let minusZero = false;
    for (const offset of offsets) {
      const flat = corner + offset;
      const v = x.values[flat];
      if (isNaNValue(v)) sawNaN = true;
      else if (best === null || v > best) {
        best = v;
        bestStored = x.data[flat];
        plusZero = minusZero = false;
      }
      if (v === 0 && best === 0) {
        if (Object.is(v, -0)) minusZero = true;
        else plusZero = true;
      }
    }
    if (sawNaN) bestStored = family === 'float16' ? 0x7e00 : family === 'bfloat16' ? 0x7fc0 : NaN;
    else if (plusZero && minusZero) zeroEither.push(out.length);
    out.push(bestStored);
  });
  const dims = keepdims ? keepDims : x.dims.filter((_, k) => !reduced[k]);
  const data = new x.data.constructor(out.length);
  out.forEach((v, i) => (data[i] = v));
  return { type: x.type, dims, data, zeroEither };
}

// ---- validation (predicts errors) ------------------------------------------------------------

const fail = (kind, details = {}) => ({ ok: false, kind, ...details });
const isIntegerNumber = (v) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
const isListLike = (v) => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));

// Reads a tensor-like's own form: known type, the right data class, dims a list of non-negative
// integers matching the data length.
function readTensor(x) {
  if (x === null || typeof x !== 'object') return fail('not-a-tensor');
  const { type, data, dims } = x;
  if (typeof type !== 'string' || !Object.hasOwn(TYPES, type)) return fail('unknown-type');
  if (!(data instanceof TYPES[type].array)) return fail('data-class');
  const shape = dims === undefined ? [data.length] : dims;
  // A list of any entries (each is checked later); BigInt entries (ONNX protobuf readers give
  // int64 dims) count as the numbers they are.
  if (!isListLike(shape)) return fail('dims-form');
  return { ok: true, type, data, dims: Array.from(shape, (d) => (typeof d === 'bigint' ? Number(d) : d)) };
}

function checkShape(t) {
  for (const d of t.dims) if (typeof d !== 'number' || !Number.isInteger(d) || d < 0) return fail('bad-dims');
  if (product(t.dims) !== t.data.length) return fail('length');
  return null;
}

function checkAttribute(op, version, name, value) {
  const spec = OPS[op][version].attrs[name];
  if (!spec) {
    if (!ALL_ATTRIBUTE_NAMES.includes(name)) return fail('attr-unknown', { name });
    if (op === 'ReduceMax' && name === 'axes') return fail('attr-is-input', { name });
    const first = firstVersionWithAttribute(op, name);
    return first !== null && first > version ? fail('attr-later', { name, first }) : fail('attr-unknown', { name });
  }
  const [form] = spec;
  if (form === 'int' && !(isIntegerNumber(value) && Number.isFinite(Number(value)))) return fail('attr-value', { name });
  if (form === 'flag') {
    const ok = typeof value === 'boolean' || ((typeof value === 'number' || typeof value === 'bigint') && (value == 0 || value == 1));
    if (!ok) return fail('attr-value', { name });
  }
  if (form === 'ints' && !(isListLike(value) && Array.from(value).every((v) => isIntegerNumber(v) && Number.isFinite(Number(v)))))
    return fail('attr-value', { name });
  return null;
}

function attributeValue(op, version, attributes, name) {
  const given = attributes[name];
  if (given === undefined) return OPS[op][version].attrs[name][1];
  return Number(given); // booleans -> 0/1, BigInts -> numbers
}

// An axis in [-rank, rank-1], normalized; null when out of range.
function normalizeAxis(axis, rank) {
  const a = Number(axis);
  return a >= -rank && a <= rank - 1 ? (a < 0 ? a + rank : a) : null;
}

/**
 * Runs one node the way api.md says. Returns { ok: true, version, output } or
 * { ok: false, version?, kind, ...details } predicting an error.
 */
export function referenceNode(op, inputs, attributes, opset) {
  if (!Object.hasOwn(OPS, op)) return fail('unknown-op');
  if (opset !== undefined && !(typeof opset === 'number' && Number.isInteger(opset) && opset >= 1)) return fail('opset');
  const version = resolveVersion(op, opset);
  if (version === null) return fail('opset');
  const r = run(op, version, inputs, attributes);
  return { version, ...r };
}

function run(op, version, inputs, attributes) {
  const spec = OPS[op][version];
  if (!Array.isArray(inputs)) return fail('inputs-not-array');
  const tensors = [];
  for (const x of inputs) {
    if (x === null || x === undefined) tensors.push(null);
    else {
      const t = readTensor(x);
      if (!t.ok) return t;
      tensors.push(t);
    }
  }
  if (attributes !== undefined && (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)))
    return fail('attributes-not-object');
  const attrs = attributes ?? {};
  if (tensors.length > spec.inputs) return fail('input-count');
  if (tensors.length < 1 || tensors[0] === null) return fail('missing-input');
  for (const name of Object.keys(attrs)) {
    if (attrs[name] === undefined) continue;
    const problem = checkAttribute(op, version, name, attrs[name]);
    if (problem) return problem;
  }
  const x = tensors[0];
  if (!spec.types.includes(x.type)) return fail('type', { type: x.type, first: firstVersionAccepting(op, x.type) });
  const shapeProblem = checkShape(x);
  if (shapeProblem) return shapeProblem;
  x.values = decodeAll(x.type, x.data);
  const rank = x.dims.length;
  const keepdims = () => attributeValue(op, version, attrs, 'keepdims') !== 0;

  switch (spec.kind) {
    case 'arg': {
      const axis = normalizeAxis(attributeValue(op, version, attrs, 'axis'), rank);
      if (axis === null) return fail('axis');
      if (x.dims[axis] === 0) return fail('empty-axis');
      const last = 'select_last_index' in spec.attrs && attributeValue(op, version, attrs, 'select_last_index') !== 0;
      return { ok: true, output: argExtreme(x, axis, keepdims(), op === 'ArgMax', last) };
    }
    case 'hardmax-axis':
    case 'hardmax-2d': {
      const axis = normalizeAxis(attributeValue(op, version, attrs, 'axis'), rank);
      if (axis === null) return fail('axis');
      return { ok: true, output: spec.kind === 'hardmax-axis' ? hardmaxAlongAxis(x, axis) : hardmaxCoerced(x, axis) };
    }
    default: {
      let axes = [];
      if (spec.kind === 'reduce-attr') {
        if (attrs.axes !== undefined) axes = Array.from(attrs.axes, Number);
      } else if (tensors.length > 1 && tensors[1] !== null) {
        const a = tensors[1];
        if (a.type !== 'int64') return fail('axes-input');
        const problem = checkShape(a);
        if (problem) return problem;
        if (a.dims.length !== 1) return fail('axes-input');
        axes = Array.from(a.data, Number);
      }
      if (spec.kind === 'reduce-input' && axes.length === 0 && attributeValue(op, version, attrs, 'noop_with_empty_axes') !== 0)
        return { ok: true, output: { type: x.type, dims: [...x.dims], data: x.data.slice() } };
      const reduced = new Array(rank).fill(axes.length === 0);
      for (const a of axes) {
        const axis = normalizeAxis(a, rank);
        if (axis === null) return fail('axis');
        if (reduced[axis]) return fail('repeated-axis');
        reduced[axis] = true;
      }
      return { ok: true, output: reduceMax(x, reduced, keepdims()) };
    }
  }
}
