// Value pools per dtype, as stored in the typed array (16-bit floats as bits): small pools make
// ties likely, and each holds the type's edge values (NaN, ±0, ±inf, extremes, 2^53 + 1, ...).
import { exactBits } from './exact-float.mjs';
import { OPS, OP_NAMES, TYPES, bfloat16Value, float16Value } from './reference.mjs';

const FLOATS = [NaN, -Infinity, Infinity, -0, 0, 1, -1, 1.5, -2.5, 3, 1e-30, -7];
const sixteen = (format, extra) => [...FLOATS.map((v) => exactBits(v, format)), ...extra];

export const POOLS = Object.freeze({
  float32: [...FLOATS, 3.4028234663852886e38, -3.4028234663852886e38, 1.401298464324817e-45],
  float64: [...FLOATS, Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324, 2 ** 53 + 2],
  // float16: extra NaN payloads (0x7c01 signalling, 0xfe00 negative), 65504, the smallest subnormal.
  float16: sixteen('float16', [0x7c01, 0xfe00, 0x7bff, 0xfbff, 0x0001, 0x8001]),
  bfloat16: sixteen('bfloat16', [0x7f81, 0xffc0, 0x7f7f, 0xff7f, 0x0001, 0x8001]),
  int8: [-128, 127, 0, -1, 1, 5, -5],
  uint8: [0, 255, 1, 128, 127, 7],
  int16: [-32768, 32767, 0, -1, 1, 300, -300],
  uint16: [0, 65535, 1, 32768, 32767, 9],
  int32: [-2147483648, 2147483647, 0, -1, 1, 16777217, -16777217],
  uint32: [0, 4294967295, 1, 2147483648, 2147483647, 16777217],
  int64: [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, -(2n ** 53n)],
  uint64: [0n, 2n ** 64n - 1n, 1n, 2n ** 63n, 2n ** 63n + 1n, 2n ** 63n - 1n, 2n ** 53n + 1n, 2n ** 53n],
  bool: [0, 1],
});

/** True for the float families, where NaN and ±0 exist. */
export const isFloatType = (type) => ['float', 'float16', 'bfloat16'].includes(TYPES[type].family);

/** The number a stored value v of `type` stands for (16-bit floats are stored as bits). */
export function numberOf(type, v) {
  const family = TYPES[type].family;
  if (family === 'float16') return float16Value(v);
  if (family === 'bfloat16') return bfloat16Value(v);
  return Number(v);
}
/** Whether v (16-bit floats: their bits) is a NaN of `type`. */
export const isNanValue = (type, v) => Number.isNaN(numberOf(type, v));
/** The type's pool without its NaNs, and its NaNs alone. */
export const numbersOf = (type) => POOLS[type].filter((v) => !isNanValue(type, v));
export const nansOf = (type) => POOLS[type].filter((v) => isNanValue(type, v));

/** A tensor of `type` and `dims` filled with values drawn from the type's pool by rng. */
export function randomTensor(rng, type, dims, pool = POOLS[type]) {
  const count = dims.reduce((p, d) => p * d, 1);
  const data = new TYPES[type].array(count);
  fillFromPool(data, pool, rng);
  return { type, data, dims };
}

/**
 * Fills the typed array `data` with entries of `pool` drawn by rng. The entries are stored once
 * into an array of data's class, and their bits copied from there through unsigned views of 1, 2
 * or 4 bytes: one store site that met all twelve classes (and BigInts) took 27% of
 * engine-window.test.mjs's time. The values are the same as storing each entry.
 */
export function fillFromPool(data, pool, rng) {
  const pooled = new data.constructor(pool.length);
  for (let k = 0; k < pool.length; k += 1) pooled[k] = pool[k];
  const size = data.BYTES_PER_ELEMENT;
  const Word = size === 1 ? Uint8Array : size === 2 ? Uint16Array : Uint32Array;
  const words = size === 8 ? 2 : 1; // words an element
  const to = new Word(data.buffer, data.byteOffset, data.length * words);
  const from = new Word(pooled.buffer, 0, pool.length * words);
  const n = pool.length;
  if (words === 1) {
    for (let i = 0; i < to.length; i += 1) to[i] = from[rng.int(n)];
    return;
  }
  for (let i = 0; i < to.length; i += 2) {
    const k = 2 * rng.int(n);
    to[i] = from[k];
    to[i + 1] = from[k + 1];
  }
}

/**
 * Call n of a run over every operator, version and accepted type, on small shapes (odd n: rank 3
 * up to [3,40,12], kernel-shaped; even n: rank 2, some empty): { op, version, type, dims, inputs,
 * attrs }, ReduceMax's axes as an attribute or an int64 input as its version takes them.
 */
export function randomSmallCall(rng, n) {
  const op = rng.pick(OP_NAMES);
  const version = rng.pick(Object.keys(OPS[op]).map(Number));
  const type = rng.pick(OPS[op][version].types);
  const dims = n % 2 ? [rng.range(1, 3), rng.range(1, 40), rng.range(1, 12)] : [rng.range(0, 4), rng.range(1, 5)];
  const inputs = [randomTensor(rng, type, dims, POOLS[type])];
  const attrs = {};
  if (op === 'ReduceMax') {
    const axes = rng.pick([[1], [0], [0, 1], [-1], []]);
    if (version >= 18) inputs.push({ type: 'int64', data: BigInt64Array.from(axes, BigInt), dims: [axes.length] });
    else if (axes.length) attrs.axes = axes;
    if (version >= 18 && rng.chance(0.3)) attrs.noop_with_empty_axes = 1;
    attrs.keepdims = rng.int(2);
  } else {
    attrs.axis = rng.range(-2, 1);
    if (op !== 'Hardmax') attrs.keepdims = rng.int(2);
    if (op !== 'Hardmax' && version >= 12) attrs.select_last_index = rng.int(2);
  }
  return { op, version, type, dims, inputs, attrs };
}
