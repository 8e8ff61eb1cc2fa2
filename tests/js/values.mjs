// Value pools per dtype, as stored in the typed array (16-bit floats as bits): small pools make
// ties likely, and each holds the type's edge values (NaN, ±0, ±inf, extremes, 2^53 + 1, ...).
import { exactBits } from './exact-float.mjs';
import { TYPES, bfloat16Value, float16Value } from './reference.mjs';

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
  for (let i = 0; i < count; i += 1) data[i] = pool[rng.int(pool.length)];
  return { type, data, dims };
}
