// Exact conversions between JS numbers and float16 / bfloat16 bits: one rounding, to nearest
// even, straight from the double's own bits (no double rounding through float32); NaN stays NaN.
// Bit-level, through a scratch view of the double, and with a table of binade scales: a few ns a
// value, where Math.log2 and ** per value took 50-70 ns (toFloat16Array of 32,000 values 2.2 ms).

import { describeValue, isCount, typedArrayKind } from './dtypes.js';

// A double's two 32-bit words, in the platform's byte order.
const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);
const HIGH = new Uint8Array(new Float64Array([2]).buffer)[7] === 0x40 ? 1 : 0; // 2's high byte is 0x40
const LOW = 1 - HIGH;

function roundHalfEven(q) {
  const floor = Math.floor(q);
  const rest = q - floor; // exact: q has few integer bits
  return rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
}

// The encoder and decoder of a binary format: exponent bias, mantissa bits, a quiet NaN's bits.
function codec({ bias, mantissa, nan }) {
  const exponentMax = 2 * bias + 1; // all ones: infinity and NaN
  const infinity = exponentMax << mantissa;
  const implicit = 1 << mantissa;
  const mantissaMask = implicit - 1;
  const shift = 20 - mantissa; // the double's high word keeps 20 mantissa bits
  const stickyMask = (1 << (shift - 1)) - 1;
  const subnormalScale = 2 ** (mantissa + bias - 1); // |x| below the least normal, in units of the least subnormal
  // scales[e]: the value of one mantissa unit at biased exponent e (e = 0: that of e = 1)
  const scales = Float64Array.from({ length: exponentMax }, (_, e) => 2 ** (Math.max(e, 1) - bias - mantissa));

  function encode(value) {
    const x = +value;
    if (x !== x) return nan;
    scratch[0] = x;
    const hi = words[HIGH];
    const sign = (hi >>> 16) & 0x8000;
    const e = ((hi >>> 20) & 0x7ff) - 1023; // the double's exponent (-1023: a zero or subnormal; 1024: infinity)
    if (e > bias) return sign | infinity;
    // Below the format's least normal: a multiple of its least subnormal, the scaling by 2^n exact
    // (it may round up to the least normal).
    if (e < 1 - bias) return sign | roundHalfEven(Math.abs(x) * subnormalScale);
    // Normal: the exponent and the top mantissa bits, then once to nearest even on the bits below
    // (a carry out of the mantissa steps the exponent, out of the largest finite to infinity).
    const kept = ((e + bias) << mantissa) | ((hi & 0xfffff) >>> shift);
    const half = (hi >>> (shift - 1)) & 1;
    const sticky = (hi & stickyMask) | words[LOW];
    return sign | (kept + (half & ((sticky !== 0) | (kept & 1))));
  }

  // (The sign by a multiply: a branch on it mispredicts on mixed signs; x * -1 is exact, 0 * -1 is -0.)
  function decode(bits) {
    const b = bits & 0xffff;
    const exponent = (b >> mantissa) & exponentMax;
    const m = b & mantissaMask;
    if (exponent === exponentMax) return m ? NaN : b & 0x8000 ? -Infinity : Infinity;
    return (exponent === 0 ? m : m + implicit) * scales[exponent] * (1 - ((b >> 14) & 2));
  }

  return { encode, decode };
}

const FLOAT16 = codec({ bias: 15, mantissa: 10, nan: 0x7e00 });
const BFLOAT16 = codec({ bias: 127, mantissa: 7, nan: 0x7fc0 });

// A BigInt or a Symbol (which the conversions throw a bare TypeError for) is an Error naming the
// helper; any other value converts as unary + does (an object's valueOf: what it throws, it throws).
const notNumeric = (value) => typeof value === 'bigint' || typeof value === 'symbol';
function notNumberError(helper, what, value, at) {
  // (a BigInt's digits only while few: 2n ** 4194304n has 1.26 million, a second to print)
  const shown = typeof value === 'symbol' ? 'a Symbol' : value > -(10n ** 40n) && value < 10n ** 40n ? `the BigInt ${value}n` : 'a BigInt of more than 40 digits';
  return new Error(`onnx-extrema: ${helper} takes ${what}, ${at === undefined ? 'got' : `but entry ${at} is`} ${shown}`);
}
const scalar = (helper, what, convert) => (value) => {
  if (notNumeric(value)) throw notNumberError(helper, what, value);
  return convert(value);
};

/** float16 bits (0..65535) for a number, rounded to nearest even. */
export const toFloat16Bits = scalar('toFloat16Bits', 'a number', FLOAT16.encode);
/** The number that float16 bits stand for. */
export const fromFloat16Bits = scalar('fromFloat16Bits', 'float16 bits as a number', FLOAT16.decode);
/** bfloat16 bits (0..65535) for a number, rounded to nearest even. */
export const toBFloat16Bits = scalar('toBFloat16Bits', 'a number', BFLOAT16.encode);
/** The number that bfloat16 bits stand for. */
export const fromBFloat16Bits = scalar('fromBFloat16Bits', 'bfloat16 bits as a number', BFLOAT16.decode);

// The array helpers take an Array, a typed array or another array-like. Anything else is an
// Error naming the helper: null threw a bare TypeError, a number or a plain object gave an empty
// array, a string gave one element per character, and a BigInt64Array threw mixing BigInt.
function checkedValues(helper, values, what) {
  const kind = typedArrayKind(values);
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array' || (kind === undefined && !Array.isArray(values) && !isArrayLike(values)))
    throw new Error(`onnx-extrema: ${helper} takes ${what} as an Array or a typed array, got ${describeValue(values)}`);
  return values;
}
const isArrayLike = (value) => value !== null && typeof value === 'object' && isCount(value.length);

// The output array of n entries, or an Error naming the helper (an array-like's length may be
// any count: 2^40 threw a bare RangeError).
function outputOf(helper, OutClass, n) {
  try {
    return new OutClass(n);
  } catch (cause) {
    throw new Error(`onnx-extrema: ${helper}: ${n} values do not fit in memory (${cause.message})`);
  }
}

// One loop per direction, so each sees one output class (a loop shared by both went megamorphic).
// An entry that is a BigInt or a Symbol is an Error naming the helper and the entry: a test the
// loop's numbers pass at its first compare (a try around the loop keeping the entry for its catch
// made toFloat16Array 15-20% slower).
function encodeArray(helper, values, encode) {
  const n = values.length;
  const out = outputOf(helper, Uint16Array, n);
  for (let i = 0; i < n; i += 1) {
    const value = values[i];
    if (typeof value !== 'number' && notNumeric(value)) throw notNumberError(helper, 'numbers', value, i);
    out[i] = encode(value);
  }
  return out;
}
function decodeArray(helper, bits, decode) {
  const n = bits.length;
  const out = outputOf(helper, Float32Array, n);
  for (let i = 0; i < n; i += 1) {
    const value = bits[i];
    if (typeof value !== 'number' && notNumeric(value)) throw notNumberError(helper, 'bits as numbers', value, i);
    out[i] = decode(value);
  }
  return out;
}
/** Uint16Array of float16 bits from numbers (an Array, Float32Array, Float64Array, ...). */
export const toFloat16Array = (values) => encodeArray('toFloat16Array', checkedValues('toFloat16Array', values, 'numbers'), FLOAT16.encode);
/**
 * Float32Array from float16 bits (a Uint16Array); every float16 value is exact in float32. A
 * Float16Array (the runtime's own) holds float16 values already: they are taken as they are (its
 * entries read as bits were nonsense: 1.5 came out 5.96e-8), as a float16 output can be one.
 */
export const fromFloat16Array = (bits) =>
  typedArrayKind(bits) === 'Float16Array'
    ? Float32Array.from(bits)
    : decodeArray('fromFloat16Array', checkedValues('fromFloat16Array', bits, 'float16 bits'), FLOAT16.decode);
/** Uint16Array of bfloat16 bits from numbers. */
export const toBFloat16Array = (values) => encodeArray('toBFloat16Array', checkedValues('toBFloat16Array', values, 'numbers'), BFLOAT16.encode);
/** Float32Array from bfloat16 bits; every bfloat16 value is exact in float32. */
export const fromBFloat16Array = (bits) => decodeArray('fromBFloat16Array', checkedValues('fromBFloat16Array', bits, 'bfloat16 bits'), BFLOAT16.decode);
