// Number -> float16 / bfloat16 bits by exact integer arithmetic on the double's own bits (BigInt),
// rounding to nearest even once. A method independent of js/float16.js (which scales doubles):
// the float16 tests check one against the other, and tests build 16-bit tensors with it.

const FORMATS = {
  float16: { fraction: 10, bias: 15, exponentAll: 0x1f, nan: 0x7e00 },
  bfloat16: { fraction: 7, bias: 127, exponentAll: 0xff, nan: 0x7fc0 },
};

const view = new DataView(new ArrayBuffer(8));

/** The bits of x in `format` ('float16' | 'bfloat16'); NaN gives the format's quiet NaN. */
export function exactBits(x, format) {
  const f = FORMATS[format];
  const infinityBits = f.exponentAll << f.fraction;
  if (Number.isNaN(x)) return f.nan;
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const sign = hi >>> 31 ? 0x8000 : 0;
  const biased64 = (hi >>> 20) & 0x7ff;
  if (biased64 === 0x7ff) return sign | infinityBits;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e; // |x| = m * 2^e exactly
  if (biased64 === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased64 - 1075;
  }
  if (m === 0n) return sign;
  const log2 = m.toString(2).length - 1 + e; // floor(log2 |x|)
  const q = Math.max(log2, 1 - f.bias) - f.fraction; // weight of the target's last fraction bit
  let n; // |x| / 2^q rounded to nearest even
  if (q <= e) n = m << BigInt(e - q);
  else {
    const s = BigInt(q - e);
    n = m >> s;
    const rest = m - (n << s);
    const half = 1n << (s - 1n);
    if (rest > half || (rest === half && (n & 1n) === 1n)) n += 1n;
  }
  let exponent = q;
  if (n === 1n << BigInt(f.fraction + 1)) {
    n >>= 1n; // rounded up into the next binade
    exponent += 1;
  }
  const implicit = 1n << BigInt(f.fraction);
  if (n < implicit) return sign | Number(n); // subnormal or zero: exponent field 0
  const biased = exponent + f.fraction + f.bias;
  if (biased >= f.exponentAll) return sign | infinityBits;
  return sign | (biased << f.fraction) | Number(n - implicit);
}
