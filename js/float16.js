// Exact conversions between JS numbers and float16 / bfloat16 bits: one rounding, to nearest
// even, straight from the double (no double rounding through float32); NaN stays NaN.

// Binary formats: exponent bias, mantissa bits, bits of a quiet NaN.
const FLOAT16 = { bias: 15, mantissa: 10, exponentMax: 31, nan: 0x7e00 };
const BFLOAT16 = { bias: 127, mantissa: 7, exponentMax: 255, nan: 0x7fc0 };

function roundHalfEven(q) {
  const floor = Math.floor(q);
  const rest = q - floor; // exact: q has few integer bits
  return rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
}

function encode(value, f) {
  const x = +value;
  if (Number.isNaN(x)) return f.nan;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  const infinity = sign | (f.exponentMax << f.mantissa);
  if (a === Infinity) return infinity;
  const minNormalExponent = 1 - f.bias;
  const unit = f.mantissa; // mantissa steps per binade
  if (a < 2 ** minNormalExponent) {
    // Subnormal: a multiple of 2^(minNormalExponent - mantissa); 2^n scaling is exact.
    return sign | roundHalfEven(a * 2 ** (unit - minNormalExponent)); // may round up to the smallest normal
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  else if (2 ** (e + 1) <= a) e += 1;
  let m = roundHalfEven((a / 2 ** e) * 2 ** unit); // in [2^unit, 2^(unit+1)]
  if (m === 2 ** (unit + 1)) {
    m = 2 ** unit;
    e += 1;
  }
  const biased = e + f.bias;
  if (biased >= f.exponentMax) return infinity;
  return sign | (biased << f.mantissa) | (m - 2 ** unit);
}

function decode(bits, f) {
  const b = bits & 0xffff;
  const sign = b & 0x8000 ? -1 : 1;
  const exponent = (b >> f.mantissa) & f.exponentMax;
  const mantissa = b & ((1 << f.mantissa) - 1);
  if (exponent === f.exponentMax) return mantissa ? NaN : sign * Infinity;
  if (exponent === 0) return sign * mantissa * 2 ** (1 - f.bias - f.mantissa);
  return sign * (2 ** f.mantissa + mantissa) * 2 ** (exponent - f.bias - f.mantissa);
}

/** float16 bits (0..65535) for a number, rounded to nearest even. */
export const toFloat16Bits = (value) => encode(value, FLOAT16);
/** The number that float16 bits stand for. */
export const fromFloat16Bits = (bits) => decode(bits, FLOAT16);
/** bfloat16 bits (0..65535) for a number, rounded to nearest even. */
export const toBFloat16Bits = (value) => encode(value, BFLOAT16);
/** The number that bfloat16 bits stand for. */
export const fromBFloat16Bits = (bits) => decode(bits, BFLOAT16);

const mapInto = (Out, values, fn) => {
  const out = new Out(values.length);
  for (let i = 0; i < values.length; i += 1) out[i] = fn(values[i]);
  return out;
};
/** Uint16Array of float16 bits from numbers (an Array, Float32Array, Float64Array, ...). */
export const toFloat16Array = (values) => mapInto(Uint16Array, values, toFloat16Bits);
/** Float32Array from float16 bits (a Uint16Array); every float16 value is exact in float32. */
export const fromFloat16Array = (bits) => mapInto(Float32Array, bits, fromFloat16Bits);
/** Uint16Array of bfloat16 bits from numbers. */
export const toBFloat16Array = (values) => mapInto(Uint16Array, values, toBFloat16Bits);
/** Float32Array from bfloat16 bits; every bfloat16 value is exact in float32. */
export const fromBFloat16Array = (bits) => mapInto(Float32Array, bits, fromBFloat16Bits);
